package io.looplab.offload;

import io.looplab.grader.sync.Signal;
import io.looplab.vendor.PasswordHasher;
import io.vertx.core.Context;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The real hasher, watched: it records a hash computed on an event loop, and where the code asked for it. On
 * request ({@link #holdEveryHash()}) it also holds every hash until the test releases it, so that the test sees
 * which hashes are in progress at the same time, and on which threads.
 */
final class RecordingHasher implements PasswordHasher {

  final PasswordHasher delegate;
  private volatile String eventLoopCall;
  /** Fired whenever a hash starts or ends, so that the test re-checks what it waits for. */
  private final Signal changed = new Signal();
  /** While true, every hash waits until the test releases it (by its password): see {@link #holdEveryHash()}. */
  private boolean holding;
  private final Map<String, CountDownLatch> releases = new HashMap<>();
  private final List<String> inFlight = new ArrayList<>();
  private final List<String> threads = new ArrayList<>();

  RecordingHasher(PasswordHasher delegate) {
    this.delegate = delegate;
  }

  @Override
  public String hash(String password) {
    boolean onEventLoop = Context.isOnEventLoopThread();
    if (onEventLoop && eventLoopCall == null) {
      eventLoopCall = "Event loop stalled: " + LearnerCall.here() + " (thread " + Thread.currentThread().getName()
          + "): the hash ran on the event loop. While it runs, every other "
          + "request, timer and answer on that loop waits. Run the hash on a worker thread, with executeBlocking "
          + "or a worker executor, and answer when its future completes.";
    }
    CountDownLatch release = null;
    synchronized (this) {
      if (!holding) {
        return delegate.hash(password);
      }
      threads.add(Thread.currentThread().getName());
      if (!onEventLoop) {
        release = releases.computeIfAbsent(password, p -> new CountDownLatch(1));
        inFlight.add(password);
      }
    }
    changed.fire();
    if (onEventLoop) {
      // Refuse at once rather than hold the loop: thrown as an Error, so that no catch of the code hides it.
      throw new AssertionFailedError(eventLoopCall);
    }
    try {
      if (!release.await(AccountsScene.HASH_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
        throw new IllegalStateException("the test never released the hash");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while held by the test", e);
    } finally {
      synchronized (this) {
        inFlight.remove(password);
      }
      changed.fire();
    }
    return delegate.hash(password);
  }

  @Override
  public boolean verify(String password, String stored) {
    return delegate.verify(password, stored);
  }

  void assertNeverOnEventLoop() {
    if (eventLoopCall != null) {
      throw new AssertionFailedError(eventLoopCall);
    }
  }

  /** From now on, each hash starts, tells the test, and waits until the test releases its password. */
  synchronized void holdEveryHash() {
    holding = true;
  }

  /** Lets the hash of {@code password} go on (now, or as soon as it starts). */
  synchronized void release(String password) {
    releases.computeIfAbsent(password, p -> new CountDownLatch(1)).countDown();
  }

  /** Lets every held hash go on, and stops holding: for the end of a test. */
  synchronized void releaseAll() {
    holding = false;
    releases.values().forEach(CountDownLatch::countDown);
  }

  /**
   * Waits until {@code n} hashes are in progress at the same time; false if that did not happen in time. A hash
   * asked for on an event loop fails the test at once.
   */
  boolean awaitInFlight(int n, Duration within) {
    boolean met = changed.await(() -> eventLoopCall != null || inFlightCount() >= n, within.toMillis());
    assertNeverOnEventLoop();
    return met;
  }

  private synchronized int inFlightCount() {
    return inFlight.size();
  }

  synchronized List<String> threads() {
    return List.copyOf(threads);
  }
}
