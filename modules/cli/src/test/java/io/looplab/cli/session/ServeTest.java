package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Kit;
import io.looplab.session.SessionOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./lab serve: the session server on the instructor's kit, reached by a learner's join, check and submit. */
class ServeTest {

  /** A guard against a hang, not a measure of speed: a serve that starts when it must not would block for ever. */
  private static final Duration HANG_GUARD = Duration.ofSeconds(120);

  @TempDir
  Path dir;

  @Test
  @DisplayName("a learner joins the served session, checks, and the result is on the live page's HTML; a submit "
      + "is graded by the kit's class grading and shows in class.html")
  void joinCheckSubmit() throws Exception {
    TinyKit instructor = GradableKit.create(dir.resolve("instructor"));
    TinyKit learner = GradableKit.create(dir.resolve("learner"));
    CompletableFuture<LearnerResult> graded = new CompletableFuture<>();
    Kit kit = Kit.at(instructor.root());
    KitSubmissionGrader grader = new KitSubmissionGrader(kit, kit.exercises(), null, graded::complete);
    try (ServedSession served = ServedSession.start(new SessionOptions("127.0.0.1", 0, "Thursday", dir.resolve("data"),
        null), "127.0.0.1", grader)) {
      String[] join = served.joinLine().split(" ");
      assertEquals("./lab join http://127.0.0.1:" + served.port(), join[0] + " " + join[1] + " " + join[2]);
      TinyKit.Run joined = learner.lab("", "join", join[2], join[3], "--name", "Ada Lovelace");
      assertEquals(0, joined.status(), joined.err());
      TinyKit.Run check = learner.lab("", "check", GradableKit.ID);
      assertEquals(0, check.status(), check.err());
      // Whatever the check's JVM had no time to send goes now, as with the learner's next command.
      Outbox.Sent rest = new Outbox(Kit.at(learner.root())).send(JoinedSession.of(Kit.at(learner.root()))
          .orElseThrow(), new SessionHttp());
      assertEquals(0, rest.left(), String.valueOf(rest.why()));

      String page = get(served.instructorUrl("/"));
      assertTrue(page.contains("Ada Lovelace"), page);
      assertTrue(page.contains("not-started"), "the untouched stub's cell: " + page);

      GradableKit.solve(learner);
      CompletableFuture<String> stored = submissionEvent(served);
      TinyKit.Run submit = learner.lab("", "submit");
      assertEquals(0, submit.status(), submit.err());
      LearnerResult result = graded.get(300, TimeUnit.SECONDS);
      assertTrue(result.isGraded(), result.problem());
      assertEquals("Ada Lovelace", result.learner());
      assertEquals(1, result.exercise(GradableKit.ID).orElseThrow().points(), "graded on the submitted answer");
      assertEquals("event: submission", stored.get(60, TimeUnit.SECONDS));
      String report = get(served.instructorUrl("/class.html"));
      assertTrue(report.contains("Ada Lovelace") && report.contains(GradableKit.ID) && report.contains("full-marks"),
          report);
    }
  }

  @Test
  @DisplayName("./lab serve in its own JVM prints the join line and the instructor's URL, stops on a signal through "
      + "its shutdown hook, and started again on the same data keeps the same session code")
  void serveCommandRunsUntilStopped() throws Exception {
    TinyKit instructor = GradableKit.create(dir.resolve("instructor"));
    Path data = dir.resolve("data");
    List<String> first = serveUntilJoinLine(instructor, data);
    String joinLine = first.stream().filter(l -> l.startsWith("  ./lab join ")).findFirst().orElseThrow();
    assertTrue(joinLine.matches("  \\./lab join http://127\\.0\\.0\\.1:\\d+ [A-Z]{6}"), joinLine);
    assertTrue(first.stream().anyMatch(l -> l.matches("  http://127\\.0\\.0\\.1:\\d+/\\?key=[0-9a-f]+")), first.toString());
    assertTrue(first.stream().anyMatch(l -> l.matches("  http://127\\.0\\.0\\.1:\\d+/projector\\?view=[0-9a-f]+")),
        "the projector's URL has its own key: " + first);
    assertTrue(first.stream().noneMatch(l -> l.contains("/projector?key=")), first.toString());
    assertTrue(String.join("\n", first).contains("Session stopped. Everything is kept in " + data), first.toString());
    List<String> again = serveUntilJoinLine(instructor, data);
    String code = joinLine.substring(joinLine.lastIndexOf(' ') + 1);
    assertTrue(again.stream().anyMatch(l -> l.startsWith("  ./lab join ") && l.endsWith(" " + code)), again.toString());
  }

  /** Runs ./lab serve in a JVM of its own until it prints the join line, stops it with SIGTERM, and returns all. */
  private static List<String> serveUntilJoinLine(TinyKit kit, Path data) throws Exception {
    Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dlooplab.home=" + kit.root(), "-Dpicocli.ansi=false", "-cp", System.getProperty("java.class.path"),
        "io.looplab.cli.Lab", "serve", "--port", "0", "--host", "127.0.0.1", "--data", data.toString())
        .redirectErrorStream(true).start();
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
    // One reader for the whole of its output, so that nothing it prints while stopping is lost.
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          lines.add(line);
          if (line.startsWith("State kept in ")) {
            ready.countDown();
          }
        }
      } catch (IOException e) {
        lines.add("(output unreadable: " + e + ")");
      } finally {
        ready.countDown();
      }
    }, "serve-output");
    reader.start();
    try {
      assertTrue(ready.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS), "serve printed: " + lines);
      assertTrue(serve.isAlive(), "serve runs until stopped: " + lines);
      // SIGTERM, as Ctrl-C's SIGINT, runs the shutdown hooks; the handle's destroy leaves the output readable.
      serve.toHandle().destroy();
      assertTrue(serve.waitFor(60, TimeUnit.SECONDS), "serve stops on SIGTERM");
      reader.join(TimeUnit.SECONDS.toMillis(30));
    } finally {
      serve.destroyForcibly();
    }
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }

  @ParameterizedTest(name = "lab serve {0}")
  @DisplayName("a bad option of serve: one line in the kit's words, exit 2, nothing started")
  @CsvSource(delimiter = '|', value = {
      "--port abc                     | lab: --port abc: a port is a number from 1 to 65535 (0 for any free one)",
      "--port 70000                   | lab: --port 70000: a port is a number from 1 to 65535 (0 for any free one)",
      "--port 0 --db mysql://db/class  | lab: the session server did not start: The database URL mysql://db/class "
          + "is not a postgresql:// URL"})
  void badOptions(String args, String said) throws Exception {
    TinyKit kit = TinyKit.create(dir.resolve("kit"));
    List<String> command = new ArrayList<>(List.of("serve", "--host", "127.0.0.1", "--data",
        dir.resolve("data").toString()));
    command.addAll(List.of(args.split(" ")));
    TinyKit.Run run = assertTimeoutPreemptively(HANG_GUARD, () -> kit.lab("", command.toArray(String[]::new)));
    assertEquals(2, run.status(), run.out());
    assertEquals(1, run.errLine().lines().count(), run.err());
    assertTrue(run.errLine().startsWith(said.strip()), run.err());
  }

  @Test
  @DisplayName("a port another program has: one line saying so and how to choose another, exit 2")
  void portTaken() throws Exception {
    TinyKit kit = TinyKit.create(dir.resolve("kit"));
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      TinyKit.Run run = assertTimeoutPreemptively(HANG_GUARD, () -> kit.lab("", "serve", "--host", "127.0.0.1",
          "--port", String.valueOf(taken.getLocalPort()), "--data", dir.resolve("data").toString()));
      assertEquals(2, run.status(), run.out());
      assertTrue(run.errLine().startsWith("lab: cannot listen on 127.0.0.1:" + taken.getLocalPort()), run.err());
      assertTrue(run.errLine().contains("choose another with --port N"), run.err());
    }
  }

  @Test
  @DisplayName("the address learners are told is a private IPv4 address first, never the loopback or link-local")
  void lanAddressChoice() throws Exception {
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    InetAddress linkLocal = InetAddress.getByAddress(new byte[] {(byte) 169, (byte) 254, 1, 1});
    InetAddress publicOne = InetAddress.getByAddress(new byte[] {8, 8, 8, 8});
    InetAddress lan = InetAddress.getByAddress(new byte[] {(byte) 192, (byte) 168, 1, 20});
    InetAddress v6 = InetAddress.getByName("fe80::1");
    assertEquals(Optional.of("192.168.1.20"), LanAddress.choose(List.of(loopback, v6, linkLocal, publicOne, lan)));
    assertEquals(Optional.of("8.8.8.8"), LanAddress.choose(List.of(loopback, publicOne)));
    assertEquals(Optional.empty(), LanAddress.choose(List.of(loopback, linkLocal, v6)));
  }

  /**
   * Completes when the server pushes its event for a graded submission: stored by then, so class.html shows it.
   * Returns once the stream is open (the server sends its headers after it registered the listener).
   */
  private static CompletableFuture<String> submissionEvent(ServedSession served) throws Exception {
    java.net.http.HttpRequest events = java.net.http.HttpRequest.newBuilder(java.net.URI.create(
        served.instructorUrl("/events"))).build();
    java.net.http.HttpResponse<java.util.stream.Stream<String>> open = java.net.http.HttpClient.newHttpClient()
        .sendAsync(events, java.net.http.HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
    return CompletableFuture.supplyAsync(() -> open.body().filter(l -> l.startsWith("event: submission"))
        .findFirst().orElse("the stream ended"));
  }

  private static String get(String url) throws IOException, InterruptedException {
    java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), url + ": " + response.body());
    return response.body();
  }
}
