package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import io.looplab.grader.internal.settings.Setting;
import io.looplab.grader.internal.settings.Settings;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every setting is defined once, in the grader's {@code Settings}: CONTRIBUTING's table says what that list says,
 * and no source of the kit reads a system property or an environment variable by name anywhere else.
 */
class SettingsTest {

  private static final Path ROOT = Kit.locate().root();
  /** The one class allowed to read properties and variables by name. */
  private static final String DEFINITIONS = "internal/settings/Setting.java";
  /** A read of a property or a variable by a literal name, or of any variable. */
  private static final Pattern READ_BY_NAME = Pattern.compile(
      "System\\.getenv\\(|(System\\.getProperty|Boolean\\.getBoolean|Integer\\.getInteger|Long\\.getLong)"
          + "\\(\"(?!java\\.|user\\.|os\\.|line\\.)");
  /** A variable of the kit's named in a shell script. */
  private static final Pattern SHELL_VARIABLE = Pattern.compile("\\bLOOPLAB_[A-Z_]+");

  @Test
  @DisplayName("CONTRIBUTING's table of settings lists exactly the settings the kit defines, with their defaults")
  void contributingTableMatchesTheDefinitions() throws IOException {
    List<String> rows = Files.readAllLines(ROOT.resolve("CONTRIBUTING.md")).stream()
        .dropWhile(line -> !line.equals("## Settings"))
        .filter(line -> line.startsWith("| `"))
        .toList();
    List<String> expected = Settings.ALL.stream().map(Setting::tableRow).toList();
    assertEquals(expected, rows, "CONTRIBUTING.md's \"## Settings\" table must be these rows, in this order (from "
        + "io.looplab.grader.internal.settings.Settings):\n" + String.join("\n", expected));
  }

  @Test
  @DisplayName("no source of the kit reads a system property or an environment variable by name outside Settings")
  void noReadOutsideTheDefinitions() {
    List<String> found = new ArrayList<>();
    for (Path source : sources()) {
      String path = source.toString().replace('\\', '/');
      if (path.endsWith(DEFINITIONS) || path.endsWith("/SettingsTest.java")) { // this test's samples are on purpose
        continue;
      }
      List<String> lines = read(source);
      for (int i = 0; i < lines.size(); i++) {
        if (READ_BY_NAME.matcher(lines.get(i)).find()) {
          found.add(ROOT.relativize(source) + ":" + (i + 1) + ": " + lines.get(i).trim());
        }
      }
    }
    assertEquals(List.of(), found, "read through a constant of io.looplab.grader.internal.settings.Settings, "
        + "defined there once with its default and a sentence, and listed in CONTRIBUTING's table");
  }

  @Test
  @DisplayName("every LOOPLAB_ variable the shell scripts read is a defined setting")
  void shellVariablesAreDefined() {
    List<String> defined = Settings.ALL.stream().map(Setting::name).toList();
    List<String> scripts = List.of("lab", "modules/cli/src/main/sh/check-client.sh");
    List<String> undefined = new ArrayList<>();
    int seen = 0;
    for (String script : scripts) {
      Matcher m = SHELL_VARIABLE.matcher(String.join("\n", read(ROOT.resolve(script))));
      while (m.find()) {
        seen++;
        if (!defined.contains(m.group())) {
          undefined.add(script + ": " + m.group());
        }
      }
    }
    assertTrue(seen > 0, "the scripts read LOOPLAB_NO_SERVER at least: the pattern must find it");
    assertEquals(List.of(), undefined, "define each in Settings and CONTRIBUTING's table");
  }

  @Test
  @DisplayName("the scan sees a read by name when there is one (a line of the kit's own, before Settings took over)")
  void theScanFindsAReadByName() {
    assertTrue(READ_BY_NAME.matcher("return Long.getLong(\"looplab.close.limit.seconds\", 5);").find());
    assertTrue(READ_BY_NAME.matcher("String env = System.getenv(\"LOOPLAB_DEBUG\");").find());
    assertTrue(READ_BY_NAME.matcher("String value = System.getenv(variable);").find());
    assertTrue(!READ_BY_NAME.matcher("Path.of(System.getProperty(\"java.home\"), \"bin\")").find());
  }

  private static List<Path> sources() {
    List<Path> found = new ArrayList<>();
    try {
      // Never into target/: builds write and delete files there while this runs (the self-test's own gradings file
      // vanished under a walk of it once), and no source lives there.
      Files.walkFileTree(ROOT.resolve("modules"), new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir,
            BasicFileAttributes attributes) {
          String name = dir.getFileName().toString();
          // resources/: the hostile fixtures read settings by name on purpose
          return name.equals("target") || name.equals("resources") ? FileVisitResult.SKIP_SUBTREE
              : FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
          if (file.toString().endsWith(".java")) {
            found.add(file);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    found.sort(null);
    return found;
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
