package io.looplab.grader.layout;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library's packages form no cycle, and the public packages a test author imports stay apart from the
 * machinery under {@code internal}: read from the sources, so a new import that closes a loop fails here.
 */
class PackageCyclesTest {

  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  /** A reference to a library class, in an import or written out in full: the package is what precedes it. */
  private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.looplab\\.grader(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  @Test
  @DisplayName("no package of the grader library depends on itself through others")
  void noCycles() throws IOException {
    Map<String, Set<String>> uses = dependencies();
    assertTrue(uses.size() > 5, "expected the library's packages under " + SOURCES.toAbsolutePath() + ": " + uses);
    List<String> cycles = new ArrayList<>();
    for (String start : uses.keySet()) {
      findCycle(start, start, uses, new ArrayList<>(List.of(start)), new TreeSet<>(), cycles);
    }
    assertEquals(List.of(), cycles, "package cycles (each a -> b means a uses b)");
  }

  @Test
  @DisplayName("the public packages are the ones a test author imports; machinery lives under internal")
  void publicPackagesAreTheAuthorsOnes() throws IOException {
    Set<String> publicPackages = new TreeSet<>(dependencies().keySet());
    publicPackages.removeIf(p -> p.contains(".internal"));
    assertEquals(Set.of("io.looplab.grader", "io.looplab.grader.guard", "io.looplab.grader.leaks",
        "io.looplab.grader.nodes", "io.looplab.grader.probe", "io.looplab.grader.races",
        "io.looplab.grader.races.scene", "io.looplab.grader.sync", "io.looplab.grader.testkit"), publicPackages);
    assertFalse(dependencies().getOrDefault("io.looplab.grader.testkit", Set.of()).stream()
        .anyMatch(p -> p.contains(".internal")), "the test kit should stand on Vert.x and JUnit alone");
  }

  private static void findCycle(String start, String at, Map<String, Set<String>> uses, List<String> path,
                                Set<String> seen, List<String> cycles) {
    for (String next : uses.getOrDefault(at, Set.of())) {
      if (next.equals(start)) {
        // report each cycle once, from its alphabetically first package
        if (path.stream().allMatch(p -> p.compareTo(start) >= 0)) {
          cycles.add(String.join(" -> ", path) + " -> " + start);
        }
      } else if (seen.add(next)) {
        path.add(next);
        findCycle(start, next, uses, path, seen, cycles);
        path.remove(path.size() - 1);
      }
    }
  }

  private static Map<String, Set<String>> dependencies() throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String source = Files.readString(file);
        Matcher declared = PACKAGE.matcher(source);
        if (!declared.find()) {
          continue;
        }
        String pkg = declared.group(1);
        Set<String> used = uses.computeIfAbsent(pkg, p -> new TreeSet<>());
        Matcher reference = REFERENCE.matcher(source);
        while (reference.find()) {
          if (!reference.group(1).equals(pkg)) {
            used.add(reference.group(1));
          }
        }
      }
    }
    return uses;
  }
}
