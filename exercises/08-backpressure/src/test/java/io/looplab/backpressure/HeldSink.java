package io.looplab.backpressure;

import io.looplab.downstream.ItemSink;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.ThrownThrough;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The slow consumer the tests put behind IngestVerticle: every call to {@link #process} waits until the test
 * completes it ({@link #complete}, {@link #fail}, {@link #completeAll}), or, once the test said
 * {@link #completeFromNowOn()}, completes on the next turn of the caller's event loop. Each completion runs on the
 * context that made the call, as a real asynchronous store would answer.
 *
 * <p>It records what a test needs to judge the service by its behaviour: which items it was given and how often,
 * how many calls it had at once (now, and at most), and where the learner's code made its first call. It keeps an
 * item's name (its first line), never the item's bytes, so that the test's own memory does not grow with the items.
 */
final class HeldSink implements ItemSink {

  private record Call(String name, Context context, Promise<Void> promise) {
  }

  /** How the sink answers one call, when the test scripts it ({@link #answerNext}); held is the default. */
  enum Answer {
    /** Waits until the test completes or fails it. */
    HELD,
    /** Returns a future that has already succeeded: the item is stored before process() returns. */
    STORED_AT_ONCE,
    /** Returns a future that has already failed: the sink refused the item before process() returns. */
    FAILED_AT_ONCE,
    /** Throws from process() itself, as a client that is not connected does: no future at all. */
    THROWS
  }

  private final java.util.ArrayDeque<Answer> script = new java.util.ArrayDeque<>();
  private final ThrownThrough thrown = new ThrownThrough();

  private final List<Call> calls = new ArrayList<>();
  private final Map<String, Integer> timesGiven = new HashMap<>();
  private final Map<String, Integer> sizesGiven = new HashMap<>();
  private int inFlight;
  private int maxInFlight;
  private int done;
  private boolean autoComplete;
  private String firstCallSite;

  @Override
  public Future<Void> process(Buffer item) {
    Promise<Void> promise = Promise.promise();
    Context context = Vertx.currentContext();
    String name = Items.nameOf(item);
    boolean now;
    int index;
    Answer answer;
    synchronized (this) {
      answer = script.isEmpty() ? Answer.HELD : script.poll();
      index = calls.size();
      calls.add(new Call(name, context, promise));
      timesGiven.merge(name, 1, Integer::sum);
      sizesGiven.put(name, item.length());
      if (firstCallSite == null) {
        firstCallSite = CallSite.ofCurrentCall().orElse("");
      }
      if (answer == Answer.HELD) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
      } else {
        done++;
      }
      now = autoComplete;
      notifyAll();
    }
    switch (answer) {
      case STORED_AT_ONCE -> {
        promise.complete();
        return promise.future();
      }
      case FAILED_AT_ONCE -> {
        promise.fail(new SinkFailure("the sink refused " + name + " at once (the test's failure)"));
        return promise.future();
      }
      case THROWS -> throw thrown.record(new SinkFailure("the sink is not connected (the test's failure, thrown "
          + "from process() for " + name + ")"));
      default -> {
      }
    }
    if (now) {
      // on the next turn of the loop, as a real store answers: never inside the learner's call
      context.runOnContext(v -> settle(index, null));
    }
    return promise.future();
  }

  /**
   * The next calls, in order, answer as {@code answers} say; calls after them are held, as usual. A call answered at
   * once (or thrown) counts as done at once, and never as in flight.
   */
  synchronized void answerNext(Answer... answers) {
    script.addAll(java.util.List.of(answers));
  }

  /** " (the exception went up through ingest() at IngestVerticle.java:88)", or "" if the sink never threw. */
  String thrownThrough() {
    return thrown.inWords();
  }

  /** The call numbers (from 0) still waiting for the test, oldest first. */
  synchronized List<Integer> pendingCalls() {
    List<Integer> pending = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      if (!calls.get(i).promise().future().isComplete()) {
        pending.add(i);
      }
    }
    return pending;
  }

  /** Completes call number {@code index} (from 0) with success; returns at once, the completion runs on its loop. */
  void complete(int index) {
    settle(index, null);
  }

  /** Fails call number {@code index} (from 0) with {@code error}. */
  void fail(int index, Throwable error) {
    settle(index, error);
  }

  /** Completes every call still pending, with success. */
  void completeAll() {
    int count;
    synchronized (this) {
      count = calls.size();
    }
    for (int i = 0; i < count; i++) {
      settle(i, null);
    }
  }

  /** Completes every pending call, and every later call on the next turn of its loop. */
  void completeFromNowOn() {
    synchronized (this) {
      autoComplete = true;
    }
    completeAll();
  }

  private void settle(int index, Throwable error) {
    Call call;
    synchronized (this) {
      call = calls.get(index);
    }
    Runnable settle = () -> {
      boolean first = error == null ? call.promise().tryComplete() : call.promise().tryFail(error);
      if (first) {
        synchronized (this) {
          inFlight--;
          done++;
          notifyAll();
        }
      }
    };
    if (call.context() == null || Vertx.currentContext() == call.context()) {
      settle.run();
      return;
    }
    // From the test's thread: wait until the completion, and whatever the learner's code chained to it, has run on
    // the caller's loop, so that the test's next request finds the service as that completion left it.
    java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
    call.context().runOnContext(v -> {
      try {
        settle.run();
      } finally {
        ran.countDown();
      }
    });
    try {
      if (!ran.await(IngestScene.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("The event loop did not run the sink's answer within "
            + IngestScene.WAIT.toSeconds() + " s: is it stuck?");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits up to {@code millis} until {@code count} calls have been made; says whether they were. */
  synchronized boolean awaitCalls(int count, long millis) {
    return awaitUntil(() -> calls.size() >= count, millis);
  }

  /** Waits up to {@code millis} until {@code count} calls are done (completed or failed); says whether they were. */
  synchronized boolean awaitDone(int count, long millis) {
    return awaitUntil(() -> done >= count, millis);
  }

  private boolean awaitUntil(java.util.function.BooleanSupplier condition, long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    try {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  synchronized int calls() {
    return calls.size();
  }

  synchronized int inFlight() {
    return inFlight;
  }

  synchronized int maxInFlight() {
    return maxInFlight;
  }

  synchronized int done() {
    return done;
  }

  /** The names of the items given, in call order. */
  synchronized List<String> namesGiven() {
    return calls.stream().map(Call::name).toList();
  }

  /** The size in bytes of each item given (the last time it was given). */
  synchronized Map<String, Integer> sizesGiven() {
    return Map.copyOf(sizesGiven);
  }

  /** How many times each item was given. */
  synchronized Map<String, Integer> timesGiven() {
    return Map.copyOf(timesGiven);
  }

  /** Where the learner's code made its first call into the sink, as "ingest() at IngestVerticle.java:80". */
  synchronized Optional<String> firstCallSite() {
    return Optional.ofNullable(firstCallSite).filter(s -> !s.isEmpty());
  }
}
