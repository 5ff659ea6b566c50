package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.grader.internal.leaks.Internals;
import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.deployment.DeploymentContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Closes the Vert.x instance vertx-junit5 gave a test, after the test, with a time limit of its own.
 *
 * <p>vertx-junit5 closes it too, but waits 30 s for the close, a figure it hard-codes. A verticle whose {@code stop()}
 * future never completes keeps Vert.x from closing, so each test that leaves one deployed cost the learner 30 s (07's
 * mutants did: 100 s of the self-test), and then failed with "Closing the Vertx context timed out", which says
 * nothing about what hung. Closing here first bounds the wait, and names what it saw: an event loop still busy with
 * one task, or else the verticles still undeploying.
 * A close that completes in time leaves vertx-junit5's own close nothing to wait for. A loop the guard found stuck
 * for good ({@link StuckLoops}) ends the wait at once: the close cannot complete while it spins.
 */
final class BoundedVertxClose {

  /** The key and namespace under which vertx-junit5 5 keeps a test's Vertx (as a Supplier that also closes it). */
  private static final String VERTX_KEY = "Vertx";

  private BoundedVertxClose() {
  }

  /**
   * How long a close may take: 5 s, a ceiling, not a wait. Measured after each of the 96 tests of the reference
   * solutions on a 2-core machine: at most 18 ms quiet, 67 ms beside three busy loops.
   */
  private static Duration limit() {
    return Duration.ofSeconds(Settings.CLOSE_LIMIT_SECONDS.asLong());
  }

  /**
   * Closes the test's own Vertx, if it has one, waiting up to {@link #limit()}.
   *
   * @throws AssertionFailedError if the close did not complete in time; vertx-junit5 is then told to forget the
   *     instance, so that it does not wait 30 s more for the same close
   */
  static void closeOf(ExtensionContext context, StuckLoops stuckLoops) {
    ExtensionContext.Store store = context.getStore(ExtensionContext.Namespace.GLOBAL);
    if (!(store.get(VERTX_KEY) instanceof Supplier<?> scoped) || !(scoped.get() instanceof Vertx vertx)) {
      return;
    }
    // The close cannot complete while one of its loops is stuck (StuckLoops): it ends the wait, then or later.
    CompletableFuture<Void> loopStuck = new CompletableFuture<>();
    try (StuckLoops.Listening listening = stuckLoops.listen(loop -> {
      if (ownedBy(loop, vertx)) {
        loopStuck.complete(null);
      }
    })) {
      if (!stuckEventLoops(vertx, stuckLoops).isEmpty()) {
        loopStuck.complete(null);
      }
      long deadline = System.nanoTime() + limit().toNanos();
      CompletableFuture<Void> closed = vertx.close().toCompletionStage().toCompletableFuture();
      CompletableFuture.anyOf(closed, loopStuck).get(limit().toMillis(), TimeUnit.MILLISECONDS);
      List<String> stuck = closed.isDone() ? List.of() : stuckEventLoops(vertx, stuckLoops);
      if (!stuck.isEmpty()) {
        store.remove(VERTX_KEY);
        throw new LoopStuck("After the test, Vert.x could not close: " + String.join("; ", stuck) + ". "
            + LOOP_NEVER_BACK);
      }
      closed.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS); // a stuck loop came back
      List<String> spinning = workersStillRunning(vertx);
      if (!spinning.isEmpty()) {
        throw new AssertionFailedError("After the test, Vert.x closed, but " + String.join("; ", spinning)
            + ". Closing Vert.x stops handing work to its worker threads, but it cannot stop a task that is running: a "
            + "loop that never ends, in executeBlocking say, keeps a thread busy for as long as the process lives. "
            + "Give the work a way to end (a condition it checks, a deadline), or do not start it.");
      }
    } catch (TimeoutException e) {
      store.remove(VERTX_KEY);
      throw new AssertionFailedError(whyNotClosed(vertx));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // A close that failed is over: nothing to wait for, and not what this check is about.
    }
  }

  /**
   * What kept the close from completing, as far as can be seen: an event loop of this Vert.x that is still running
   * one task (closing needs every event loop), or else the verticles whose undeploy has not completed.
   */
  private static String whyNotClosed(Vertx vertx) {
    String start = "After the test, Vert.x did not close within " + limit().toSeconds() + " s: ";
    List<String> busy = busyEventLoops(vertx, t -> true);
    if (!busy.isEmpty()) {
      return start + String.join("; ", busy) + ". " + LOOP_NEVER_BACK;
    }
    return start + stillUndeploying(vertx) + ". Closing Vert.x undeploys every verticle and waits for the future "
        + "each stop() returns: a stop() whose future never completes keeps the whole application from shutting "
        + "down. Complete it on every path, also when the work it waits for failed or never started.";
  }

  /** A close that cannot complete, because an event loop of the instance is stuck ({@link StuckLoops}). */
  static final class LoopStuck extends AssertionFailedError {
    LoopStuck(String message) {
      super(message);
    }
  }

  /** Why a busy event loop keeps Vert.x from closing. */
  private static final String LOOP_NEVER_BACK = "Closing Vert.x runs on its event loops, and an event loop that "
      + "never finishes its task never gets to it, nor to any other event: a loop that does not end, or a wait for "
      + "something that only that event loop could deliver.";

  /** {@link #busyEventLoops} that the guard found stuck in the task of a stall ({@link StuckLoops}). */
  private static List<String> stuckEventLoops(Vertx vertx, StuckLoops stuckLoops) {
    return busyEventLoops(vertx, stuckLoops::isStuck);
  }

  /** "vert.x-eventloop-thread-0 has been running one task for 6 s, now at Adder.java:4", for each such loop. */
  private static List<String> busyEventLoops(Vertx vertx, Predicate<VertxThread> which) {
    long now = System.nanoTime();
    return Thread.getAllStackTraces().keySet().stream()
        .filter(VertxThread.class::isInstance).map(VertxThread.class::cast)
        .filter(t -> !t.isWorker() && t.startTime() != 0 && ownedBy(t, vertx) && which.test(t))
        .map(t -> t.getName() + " has been running one task for "
            + TimeUnit.NANOSECONDS.toSeconds(now - t.startTime()) + " s, " + whereNow(t))
        .sorted()
        .toList();
  }

  /**
   * How long a worker of a closed Vert.x may go on with the task it had: a task handed over just before the close
   * ends at once, and only one that never ends is still in it after this.
   */
  private static final Duration WORKER_GRACE = Duration.ofSeconds(1);

  /**
   * "worker thread vert.x-worker-thread-2 was still running one task, in ... at SeatCounter.java:59", for each worker
   * of the closed {@code vertx} that is still computing the learner's code {@link #WORKER_GRACE} after the close,
   * in the same task. A worker that waits is not counted: waiting costs no CPU, and the test may be what it waits for.
   */
  private static List<String> workersStillRunning(Vertx vertx) throws InterruptedException {
    Map<VertxThread, Long> busy = new HashMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t instanceof VertxThread v && v.isWorker() && v.startTime() != 0 && ownedBy(v, vertx)
          && CodeUnderTest.firstFrameIndex(v.getStackTrace()) >= 0) {
        busy.put(v, v.startTime());
      }
    }
    long deadline = System.nanoTime() + WORKER_GRACE.toNanos();
    while (!busy.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      busy.entrySet().removeIf(e -> !e.getKey().isAlive() || e.getKey().startTime() != e.getValue());
    }
    return busy.keySet().stream()
        .filter(t -> t.getState() == Thread.State.RUNNABLE)
        .map(t -> "its worker thread " + t.getName() + " was still running one task, " + whereNow(t))
        .sorted()
        .toList();
  }

  private static boolean ownedBy(VertxThread thread, Vertx vertx) {
    try {
      return Internals.field(thread, "owner") == vertx;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  private static String whereNow(Thread t) {
    StackTraceElement[] stack = t.getStackTrace();
    int learner = CodeUnderTest.firstFrameIndex(stack);
    if (learner >= 0) {
      return "in " + CodeUnderTest.callSite(stack, learner, 0, true);
    }
    return stack.length == 0 ? "where, the JVM does not say" : "now in " + stack[0].getClassName() + "."
        + stack[0].getMethodName() + ", with no line of the code under test on its stack";
  }

  private static String stillUndeploying(Vertx vertx) {
    if (!(vertx instanceof VertxInternal internal)) {
      return "its undeploy had not completed";
    }
    List<String> verticles = internal.deploymentManager().deployments().stream()
        .map(DeploymentContext::deployment)
        .flatMap(d -> d.instances().stream())
        .map(BoundedVertxClose::describe)
        .distinct()
        .toList();
    return verticles.isEmpty() ? "every verticle was undeployed, but the close had not completed"
        : "still undeploying " + String.join(", ", verticles);
  }

  private static String describe(Deployable verticle) {
    return verticle.getClass().getSimpleName().isEmpty() ? verticle.getClass().getName()
        : verticle.getClass().getSimpleName();
  }
}
