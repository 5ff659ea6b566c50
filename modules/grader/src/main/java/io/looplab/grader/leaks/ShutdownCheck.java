package io.looplab.grader.leaks;

import io.looplab.grader.internal.leaks.TimerCensus;
import io.looplab.grader.internal.leaks.LeakWatch;
import io.looplab.grader.internal.guard.CodeUnderTest;
import io.looplab.grader.internal.guard.LearnersFrame;
import io.looplab.grader.nodes.NodeProcess;
import io.vertx.core.Vertx;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The shutdown check every exercise ends with: undeploy the learner's verticle, then make sure it gave back what it
 * took. Still open afterwards counts as a leak: an HTTP or TCP server, a worker pool, a Vert.x timer, a held local
 * lock, or a thread the code started. Call it from the test's own thread, never from an event loop.
 */
public final class ShutdownCheck {

  private static final long UNDEPLOY_TIMEOUT_SECONDS = 10;
  private static final long THREAD_GRACE_MILLIS = 2_000;

  private ShutdownCheck() {
  }

  /** Undeploys {@code deploymentId} and fails, naming each leak, unless nothing is left behind. */
  public static void assertCleanUndeploy(Vertx vertx, String deploymentId) {
    LeakWatch watch = LeakWatch.of(vertx);
    try {
      vertx.undeploy(deploymentId).toCompletionStage().toCompletableFuture()
          .get(UNDEPLOY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionFailedError("Undeploying the verticle failed or did not finish within "
          + UNDEPLOY_TIMEOUT_SECONDS + " s: " + e + ". A stop() must complete, and quickly.", e);
    }
    List<String> leaks = new ArrayList<>(watch.resources().openResources());
    leaks.addAll(pendingTimers(vertx));
    leaks.addAll(LockCensus.heldLocalLocks(vertx));
    try {
      for (Thread t : watch.threadsBefore().survivorsAfter(THREAD_GRACE_MILLIS)) {
        leaks.add("the thread '" + t.getName() + "' (" + whatItIs(t) + ")");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!leaks.isEmpty()) {
      throw new AssertionFailedError("Still running after undeploy: " + String.join("; ", leaks)
          + ". A verticle must give back what it took: close it in stop(), or create it in start() on the "
          + "verticle's own context so that Vert.x closes it on undeploy. Leaks pile up every time the verticle "
          + "is redeployed.");
    }
  }

  /**
   * What a Vert.x instance still holds for the code under test: its timers and its held local locks. A node of a
   * multi-process exercise calls this just before it closes, and reports the answer to its test.
   */
  public static List<String> leftoversOf(Vertx vertx) {
    List<String> leftovers = new ArrayList<>(pendingTimers(vertx));
    leftovers.addAll(LockCensus.heldLocalLocks(vertx));
    return leftovers;
  }

  /**
   * The shutdown check of a multi-process exercise: asks every node to quit, then fails, naming the node, unless each
   * one answered that it left nothing behind, closed its Vert.x (leaving its cluster, if any) and exited with status
   * 0 within {@code timeout}. Nodes still running afterwards are killed, so that no process outlives the test.
   * The node's {@code quit} verb must answer with {@code clean}, or with what it left behind.
   */
  public static void assertNodesShutDown(Duration timeout, List<NodeProcess> nodes) {
    List<String> problems = new ArrayList<>();
    var answers = nodes.stream().map(n -> n.ask("quit")).toList();
    for (int i = 0; i < nodes.size(); i++) {
      NodeProcess node = nodes.get(i);
      try {
        String answer = answers.get(i).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!answer.equals("clean")) {
          problems.add(node.name() + " still held " + answer + " when it shut down");
        }
        int status = node.awaitExit(timeout);
        if (status != 0) {
          problems.add(node.name() + (status < 0 ? " was still running " + timeout.toSeconds() + " s after it was told "
              + "to quit" : " exited with status " + status));
        }
      } catch (java.util.concurrent.TimeoutException e) {
        problems.add(node.name() + " did not finish closing within " + timeout.toSeconds() + " s" + node.lastWords());
      } catch (java.util.concurrent.ExecutionException e) {
        problems.add(node.name() + " failed to shut down: " + e.getCause().getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problems.add("interrupted while " + node.name() + " shut down");
      } finally {
        node.close();
      }
    }
    if (!problems.isEmpty()) {
      throw new AssertionFailedError("The nodes did not shut down cleanly: " + String.join("; ", problems)
          + ". A node must give back what it took and close its Vert.x, so that it leaves its cluster at once "
          + "instead of being found dead by the others; a process that lingers holds ports and memory.");
    }
  }

  /** The timers still scheduled for code outside Vert.x, each with the learner's line that set it when known. */
  private static List<String> pendingTimers(Vertx vertx) {
    return TimerCensus.pendingTimers(vertx,
        stack -> CodeUnderTest.callSiteOf(stack).map(site -> LearnersFrame.methodAndLine(site.learnerFrame())));
  }

  /** Where a leaked thread is, in the words a learner needs: their own line, or what kind of thing leaked. */
  private static String whatItIs(Thread t) {
    StackTraceElement[] stack = t.getStackTrace();
    return CodeUnderTest.firstFrame(stack).map(at -> "now at " + at).orElseGet(() -> {
      if (Arrays.stream(stack).anyMatch(f -> f.getClassName().startsWith("java.util.concurrent.ThreadPoolExecutor")
          || f.getClassName().startsWith("java.util.concurrent.ForkJoin"))) {
        return "an idle worker of an ExecutorService that was never shut down";
      }
      if (Arrays.stream(stack).anyMatch(f -> f.getClassName().equals("java.util.TimerThread"))) {
        return "a java.util.Timer that was never cancelled";
      }
      return Arrays.stream(stack).filter(f -> !f.getClassName().matches("(java|jdk|sun)\\..*")).findFirst()
          .map(f -> "now at " + LearnersFrame.line(f)).orElse("started by the code and still running");
    });
  }
}
