package io.looplab.guard;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard on programs it has never seen, each run as a project's build runs its tests: compiled as a project's
 * main and test code are (two folders), then run cold in a JVM of its own with the flags docs/guard.md gives and
 * nothing else of the kit. Each case in src/test/resources/corpus is a {@code Service.java}, its
 * {@code ServiceTest.java} and an {@code expect.txt}: "pass", or "fail" and what the failure must say. A failing case
 * must fail at a line of Service.java marked {@code // blocks here} (a stalling loop at any of its lines), as the
 * guard's promise is the user's line.
 */
class CorpusTest {


  private static Path corpus;
  private static Path main;
  private static Path tests;

  @BeforeAll
  static void compileTheCorpus() throws IOException {
    corpus = Path.of("src", "test", "resources", "corpus").toAbsolutePath();
    Path out = Path.of("target", "corpus").toAbsolutePath();
    main = out.resolve("main");
    tests = out.resolve("test");
    List<Path> mainSources = new ArrayList<>();
    List<Path> testSources = new ArrayList<>();
    try (Stream<Path> files = Files.walk(corpus)) {
      files.filter(f -> f.toString().endsWith(".java"))
          .forEach(f -> (f.getFileName().toString().endsWith("Test.java") ? testSources : mainSources).add(f));
    }
    ColdRun.compile(mainSources, main, System.getProperty("java.class.path"));
    ColdRun.compile(testSources, tests, main + File.pathSeparator + System.getProperty("java.class.path"));
  }

  @TestFactory
  @DisplayName("every correct program passes and every blocking one fails at its line, each cold in a JVM of its own")
  Stream<DynamicTest> everyCaseAsExpected() throws Exception {
    List<String> names;
    try (Stream<Path> dirs = Files.list(corpus)) {
      names = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted().toList();
    }
    // Two at a time, started together, so that cases also run beside each other, as a busy machine makes them.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<ColdRun.Run>> runs = new ArrayList<>();
    for (String name : names) {
      runs.add(pool.submit(() -> ColdRun.run("corpus." + name + ".ServiceTest", tests, main)));
    }
    pool.shutdown();
    List<DynamicTest> checks = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      Future<ColdRun.Run> run = runs.get(i);
      checks.add(DynamicTest.dynamicTest(name, () -> judge(name, run.get(ColdRun.LIMIT_SECONDS, TimeUnit.SECONDS))));
    }
    return checks.stream();
  }

  private static void judge(String name, ColdRun.Run run) throws IOException {
    List<String> expect = Files.readAllLines(corpus.resolve(name).resolve("expect.txt")).stream()
        .filter(l -> !l.isBlank()).toList();
    List<String> verdicts = run.verdicts();
    assertTrue(verdicts.contains("end"), name + ": the case's JVM ended without a verdict (exit " + run.exit()
        + "):\n" + run.output());
    List<String> tests = verdicts.stream().filter(v -> v.startsWith("passed ") || v.startsWith("failed ")).toList();
    System.out.printf("[corpus] %-28s %5d ms  %s%n", name, run.millis(), tests);
    if (expect.get(0).equals("pass")) {
      assertTrue(!tests.isEmpty() && tests.stream().allMatch(v -> v.startsWith("passed ")), name + " is a correct "
          + "program, yet: " + tests + "\n" + run.output());
      return;
    }
    String failed = tests.stream().filter(v -> v.startsWith("failed ")).findFirst().orElse(null);
    assertTrue(failed != null, name + " blocks its event loop, yet passed: " + tests + "\n" + run.output());
    List<String> lines = markedLines(corpus.resolve(name).resolve("Service.java"));
    for (String fragment : expect.subList(1, expect.size())) {
      assertTrue(failed.contains(fragment), name + ": the failure should say '" + fragment + "': " + failed);
    }
    assertTrue(lines.stream().anyMatch(failed::contains), name + ": the failure should name the line that blocks, "
        + String.join(" or ", lines) + ": " + failed);
  }

  /** The lines marked {@code // blocks here}, as "Service.java:N": a loop that stalls may be caught on any of them. */
  private static List<String> markedLines(Path source) throws IOException {
    List<String> lines = Files.readAllLines(source);
    List<String> marked = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("// blocks here")) {
        marked.add(source.getFileName() + ":" + (i + 1) + " ");
      }
    }
    assertTrue(!marked.isEmpty(), source + " marks no line with // blocks here");
    return marked;
  }

}
