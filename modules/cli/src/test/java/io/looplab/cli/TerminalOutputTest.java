package io.looplab.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI's output on a real pseudo-terminal (util-linux's {@code script}) of 80 and of 200 columns, read back as
 * the terminal shows it ({@link TerminalScreen}), and to a pipe.
 */
class TerminalOutputTest {

  private static final long LIMIT_SECONDS = 60;

  @BeforeAll
  static void needsScript() {
    Assumptions.assumeTrue(utilLinuxScript(), "util-linux's script is not on this machine: no pseudo-terminal");
  }

  @Test
  @DisplayName("at 80 columns: progress leaves nothing behind, every line fits, the message wraps at spaces")
  void eightyColumns() throws Exception {
    List<String> screen = TerminalScreen.show(onTerminal(80, null, javaCommand(OnATerminal.class.getName())), 80);
    assertEquals(OnATerminal.HEADER, screen.get(0), "the progress line must leave nothing behind: " + screen);
    screen.forEach(l -> assertTrue(l.length() <= 80, l.length() + " columns: " + l));
    assertFalse(String.join("\n", screen).contains("testing"), "a progress line was left behind: " + screen);
    List<String> message = screen.subList(1, screen.size() - 2);
    assertTrue(message.size() >= 4, "a 290-character message in 70 columns: " + message);
    assertEquals(OnATerminal.MESSAGE, String.join(" ", message.stream().map(String::strip).toList()),
        "words lost, or cut mid-word: " + message);
    assertEquals("width: 80", screen.get(screen.size() - 1));
  }

  @Test
  @DisplayName("at 200 columns the same output takes the room: longer lines, fewer of them, still within 200")
  void twoHundredColumns() throws Exception {
    List<String> screen = TerminalScreen.show(onTerminal(200, null, javaCommand(OnATerminal.class.getName())), 200);
    assertEquals(OnATerminal.HEADER, screen.get(0), screen.toString());
    screen.forEach(l -> assertTrue(l.length() <= 200, l.length() + " columns: " + l));
    assertEquals(2, screen.size() - 3, "the message in two lines of at most 200: " + screen);
    assertTrue(screen.get(screen.size() - 2).contains(OnATerminal.TITLE + " not checked yet"),
        "the whole title fits a row at 200: " + screen);
    assertEquals("width: 200", screen.get(screen.size() - 1));
  }

  @Test
  @DisplayName("COLUMNS, when set, is the width, whatever stty says")
  void columnsVariableWins() throws Exception {
    List<String> screen = TerminalScreen.show(onTerminal(200, "100", javaCommand(OnATerminal.class.getName())), 200);
    assertEquals("width: 100", screen.get(screen.size() - 1));
    screen.forEach(l -> assertTrue(l.length() <= 100, l.length() + " columns: " + l));
  }

  @Test
  @DisplayName("to a pipe nothing is wrapped or clipped, and each progress phase is a line of its own")
  void pipeIsLeftWhole() throws Exception {
    String out = run(javaCommand(OnATerminal.class.getName()), Map.of());
    List<String> lines = out.lines().toList();
    assertFalse(out.contains("\r"), out);
    assertTrue(lines.contains("          " + OnATerminal.MESSAGE), "the message in one line: " + lines);
    assertEquals(List.of("  [4/14] 04-single-owner  compiling", "  [4/14] 04-single-owner  testing"),
        lines.subList(0, 2));
    assertEquals("width: 0", lines.get(lines.size() - 1), "no width: " + lines);
  }

  @Test
  @DisplayName("lab list fits 80 columns, title clipped, and shows the whole title at 200")
  void listFitsTheTerminal(@TempDir Path dir) throws Exception {
    TinyKit kit = TinyKit.create(dir.resolve("kit"));
    Files.writeString(kit.root().resolve("exercises/02-blocking-calls/exercise.json"),
        "{\"id\": \"02-blocking-calls\", \"title\": \"" + OnATerminal.TITLE + "\"}");
    List<String> lab = javaCommand("-Dlooplab.home=" + kit.root(), Lab.class.getName(), "list");
    List<String> at80 = TerminalScreen.show(onTerminal(80, null, lab), 80);
    at80.forEach(l -> assertTrue(l.length() <= 80, l.length() + " columns: " + l));
    String row80 = at80.stream().filter(l -> l.contains("02-blocking-calls ")).findFirst().orElseThrow();
    assertTrue(row80.contains("One owner") && row80.contains("…") && row80.endsWith("not checked yet"), row80);
    assertTrue(at80.contains("Next: ./lab check 01-first-steps"), at80.toString());
    List<String> at200 = TerminalScreen.show(onTerminal(200, null, lab), 200);
    assertTrue(at200.stream().anyMatch(l -> l.contains(OnATerminal.TITLE + " not checked yet")), at200.toString());
  }

  /** The command run on a pseudo-terminal of {@code columns}, with COLUMNS unset or set; what it wrote. */
  private static String onTerminal(int columns, String columnsVariable, List<String> command) throws Exception {
    // COLUMNS is set after stty: bash, which script runs, sets an exported COLUMNS to the terminal's width again
    // after each command it runs (checkwinsize).
    StringBuilder shell = new StringBuilder("stty cols " + columns + " rows 50; "
        + (columnsVariable == null ? "unset COLUMNS; " : "export COLUMNS=" + Integer.parseInt(columnsVariable) + "; ")
        + "exec");
    command.forEach(word -> shell.append(" '").append(word.replace("'", "'\\''")).append('\''));
    return run(List.of("script", "-qec", shell.toString(), "/dev/null"), Map.of());
  }

  private static String run(List<String> command, Map<String, String> extraEnv) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.PIPE);
    builder.environment().remove("COLUMNS");
    builder.environment().remove("CI");
    builder.environment().put("NO_COLOR", "1");
    builder.environment().putAll(extraEnv);
    Process process = builder.start();
    process.getOutputStream().close();
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " still running after " + LIMIT_SECONDS + " s");
    }
    String text = new String(output, StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), command + " failed:\n" + text);
    return text;
  }

  private static List<String> javaCommand(String... arguments) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path")));
    command.addAll(Arrays.asList(arguments));
    return command;
  }

  private static boolean utilLinuxScript() {
    try {
      Process p = new ProcessBuilder("script", "--version").redirectErrorStream(true).start();
      String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor(10, TimeUnit.SECONDS) && version.contains("util-linux");
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
