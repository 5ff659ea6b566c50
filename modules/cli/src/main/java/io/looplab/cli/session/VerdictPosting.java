package io.looplab.cli.session;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.report.ExerciseResult;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * After a verdict of check or watch, in a kit that has joined a session: the verdict is queued in the outbox and the
 * outbox is sent on a thread of its own. The learner's verdict is printed before and never waits for it; nothing
 * here can fail the check (whatever goes wrong is in target/lab/session.log, and the result stays queued).
 */
public final class VerdictPosting {

  /** The most a command's JVM waits at its end for a send still under way: the rest is left to the next command. */
  public static final Duration EXIT_WAIT = Duration.ofSeconds(1);

  private VerdictPosting() {
  }

  /**
   * Queues {@code report} of {@code exercise} ("check" or "watch" as {@code source}) and starts sending the outbox;
   * the future completes when that send ends. A kit in no session queues nothing and returns a completed future.
   */
  public static CompletableFuture<Outbox.Sent> post(Kit kit, Exercise exercise, ExerciseResult report,
      int hintsUsed, String source) {
    Outbox outbox = new Outbox(kit);
    try {
      var session = JoinedSession.of(kit);
      if (session.isEmpty()) {
        return CompletableFuture.completedFuture(new Outbox.Sent(0, 0, 0, "in no session"));
      }
      boolean untouched = Originals.of(kit).untouched(exercise);
      outbox.queue(ResultBody.of(report, untouched, hintsUsed, source, Instant.now(), outbox.newId()));
      return sendInBackground(kit, session.get(), new SessionHttp());
    } catch (RuntimeException e) {
      new SessionLog(kit).line("could not queue the result of " + exercise.id() + ": " + e);
      return CompletableFuture.completedFuture(new Outbox.Sent(0, 0, outbox.queued().size(), e.toString()));
    }
  }

  /** Sends what the outbox holds on a daemon thread, which never keeps a JVM from ending. */
  public static CompletableFuture<Outbox.Sent> sendInBackground(Kit kit, JoinedSession session, SessionHttp http) {
    CompletableFuture<Outbox.Sent> done = new CompletableFuture<>();
    Thread sender = new Thread(() -> {
      try {
        done.complete(new Outbox(kit).send(session, http));
      } catch (RuntimeException e) {
        new SessionLog(kit).line("the outbox could not be sent: " + e);
        done.complete(new Outbox.Sent(0, 0, -1, e.toString()));
      }
    }, "lab-session-outbox");
    sender.setDaemon(true);
    sender.start();
    return done;
  }

  /** Waits for {@code sending} at most {@link #EXIT_WAIT}: what a command does before its JVM ends. */
  public static void awaitBriefly(CompletableFuture<Outbox.Sent> sending) {
    try {
      sending.get(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // left queued: the next command, or the warm check server, sends it
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
