package io.looplab.cli.session;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Figures, not assertions on speed: what posting a verdict costs the learner's command (the time until
 * {@code VerdictPosting.post} returns, and until a command's JVM may end), and how long a verdict takes to reach the
 * instructor's live page (its server-sent event), against the real server on 127.0.0.1. The asserts are about
 * delivery: every verdict arrives, once.
 */
class PostingBenchmarkTest {

  /** Under the server's rate limit of 20 posts in 10 s per learner. */
  private static final int VERDICTS = 15;

  @TempDir
  Path dir;

  @Test
  @DisplayName("benchmark: 15 verdicts posted one after another all reach the live page's event stream, once each; "
      + "prints the time each costs the command and its time to the page")
  void postToPage() throws Exception {
    Kit kit = Kit.at(TinyKit.create(dir.resolve("kit")).root());
    Exercise exercise = kit.find("02");
    ExerciseResult report = ExerciseResult.of(exercise.id(), exercise.title(), List.of(new TestResult("[method:t()]",
        "t", 1, TestStatus.FAILED, "no", false)));
    try (LiveSession server = LiveSession.start(dir.resolve("server"), 0)) {
      SessionHttp http = new SessionHttp();
      var joined = http.post(server.url() + "/api/join", null,
          "{\"code\":\"" + server.code() + "\",\"name\":\"Ada\"}").body();
      new JoinedSession(server.url(), joined.getString("learner"), joined.getString("token"), "Ada").save(kit);
      HttpResponse<Stream<String>> events = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(
          URI.create(server.url() + "/events?key=" + server.instructorKey())).build(),
          HttpResponse.BodyHandlers.ofLines()).get(30, TimeUnit.SECONDS);
      // Read on a thread of its own, so that a missing event fails the test after a guard instead of hanging it.
      java.util.concurrent.BlockingQueue<String> data = new java.util.concurrent.LinkedBlockingQueue<>();
      Thread reader = new Thread(() -> events.body().filter(l -> l.startsWith("data: ")).forEach(data::add),
          "benchmark-events");
      reader.setDaemon(true);
      reader.start();
      List<Long> returned = new ArrayList<>();
      List<Long> settled = new ArrayList<>();
      List<Long> onPage = new ArrayList<>();
      for (int i = 0; i < VERDICTS; i++) {
        long start = System.nanoTime();
        var sending = VerdictPosting.post(kit, exercise, report, 0, "check");
        returned.add(System.nanoTime() - start);
        VerdictPosting.awaitBriefly(sending);
        settled.add(System.nanoTime() - start);
        String line = data.poll(30, TimeUnit.SECONDS);
        assertTrue(line != null, "verdict " + i + " never reached the event stream");
        onPage.add(System.nanoTime() - start);
        assertTrue(line.contains(exercise.id()), line);
      }
      assertTrue(new Outbox(kit).queued().isEmpty());
      assertEquals(1, server.csvRows().size());
      System.out.println("[benchmark] posting, " + VERDICTS + " verdicts to the real server on 127.0.0.1: post() "
          + "returns in " + figures(returned) + "; send done in " + figures(settled) + "; on the live page's event "
          + "stream in " + figures(onPage));
    }
  }

  @Test
  @DisplayName("benchmark: with the server away, a verdict is queued and the command may end as soon as the refused "
      + "connection says so; all stay queued; prints the times")
  void serverAway() throws Exception {
    Kit kit = Kit.at(TinyKit.create(dir.resolve("kit")).root());
    Exercise exercise = kit.find("02");
    ExerciseResult report = ExerciseResult.of(exercise.id(), exercise.title(), List.of());
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    new JoinedSession("http://127.0.0.1:" + port, "l", "t", "Ada").save(kit);
    List<Long> settled = new ArrayList<>();
    for (int i = 0; i < VERDICTS; i++) {
      long start = System.nanoTime();
      VerdictPosting.awaitBriefly(VerdictPosting.post(kit, exercise, report, 0, "check"));
      settled.add(System.nanoTime() - start);
    }
    assertEquals(VERDICTS, new Outbox(kit).queued().size());
    System.out.println("[benchmark] posting with the server away (" + VERDICTS + " verdicts, queue growing to "
        + VERDICTS + "): the command may end after " + figures(settled));
  }

  private static String figures(List<Long> nanos) {
    List<Long> sorted = nanos.stream().sorted().toList();
    return String.format(Locale.ROOT, "p50 %.1f ms, max %.1f ms", sorted.get(sorted.size() / 2) / 1e6,
        sorted.get(sorted.size() - 1) / 1e6);
  }
}
