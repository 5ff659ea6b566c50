package io.looplab.grader.sync;

import io.looplab.grader.internal.guard.HeldBack;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One pending completion that the test decides: the code under test waits on {@link #future()}, and the test
 * releases it with {@link #open(Object)} or {@link #fail(Throwable)} exactly when it wants. The completion runs on
 * the context that asked for the gate, as a real async reply would, and the release waits until it has run.
 *
 * @param <T> the value the dependency produces
 */
public final class Gate<T> {

  private static final long RELEASE_TIMEOUT_SECONDS = 10;
  private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(RELEASE_TIMEOUT_SECONDS);

  private final Object argument;
  private final Context context;
  private final String callSite;
  private final Promise<T> promise = Promise.promise();

  Gate(Object argument) {
    this(argument, CallSite.ofCurrentCall().orElse(null));
  }

  Gate(Object argument, String callSite) {
    this.argument = argument;
    this.context = Vertx.currentContext();
    this.callSite = callSite;
    HeldBack.called(argument, callSite, this::isPending);
  }

  /** A gate for whatever context calls this; the gate's future completes there. */
  public static <T> Gate<T> create() {
    return new Gate<>(null);
  }

  /**
   * Where the code under test was when it made the call this gate answers, as {@code "reserve() at
   * SeatCounter.java:41"} (see {@link CallSite}); empty when no frame of the code under test was on the stack.
   */
  public Optional<String> callSite() {
    return Optional.ofNullable(callSite);
  }

  /** What the code under test passed when it made the call that this gate answers. */
  public Object argument() {
    return argument;
  }

  public Future<T> future() {
    return promise.future();
  }

  public boolean isPending() {
    return !promise.future().isComplete();
  }

  /** Completes the gate with {@code value} and returns once the code's continuation has run. */
  public void open(T value) {
    release(() -> promise.complete(value));
  }

  /** Fails the gate with {@code error} and returns once the code's continuation has run. */
  public void fail(Throwable error) {
    release(() -> promise.fail(error));
  }

  /** A release of this gate with {@code value}, to be run with others by {@link #releaseTogether}. */
  public Release opening(T value) {
    return new Release(this, () -> promise.complete(value), null);
  }

  /** A release of this gate with {@code error}, to be run with others by {@link #releaseTogether}. */
  public Release failing(Throwable error) {
    return new Release(this, () -> promise.fail(error), null);
  }

  /**
   * Releases several gates in one task of their context, one after another in the order given, and returns once
   * that task has run. Every continuation that a release runs at once (a {@code map}, a {@code compose} up to its
   * next await) runs before the next gate opens, and nothing that any of them queues for later (another task, a
   * timer, a message) runs before all the gates are open. So the racers' continuations really overlap: each one has
   * read whatever it reads in its first step before any of them takes a second step. {@link #open} and
   * {@link #fail}, by contrast, let the event loop run between releases.
   *
   * @throws IllegalArgumentException if the gates were called from different contexts: then no single task can
   *     release them all
   */
  public static void releaseTogether(List<Release> releases) {
    if (releases.isEmpty()) {
      return;
    }
    Context shared = releases.get(0).gate.context;
    for (Release release : releases) {
      if (!Objects.equals(release.gate.context, shared)) {
        throw new IllegalArgumentException("releaseTogether needs gates called from one context: " + releases);
      }
      if (!release.gate.isPending()) {
        throw new IllegalStateException("This gate was already released: a gate answers one call, once: "
            + release.gate);
      }
    }
    List<Release> inOrder = new ArrayList<>(releases);
    runOn(shared, () -> inOrder.forEach(Release::run));
  }

  /** {@link #releaseTogether(List)} for a few releases written out. */
  public static void releaseTogether(Release... releases) {
    releaseTogether(List.of(releases));
  }

  /** One pending completion of one gate, with what to run on the context right after it: see {@link #releaseTogether}. */
  public static final class Release {

    private final Gate<?> gate;
    private final Runnable completion;
    private final Runnable beforehand;
    private final Runnable afterwards;

    private Release(Gate<?> gate, Runnable completion, Runnable afterwards) {
      this(gate, completion, null, afterwards);
    }

    private Release(Gate<?> gate, Runnable completion, Runnable beforehand, Runnable afterwards) {
      this.gate = gate;
      this.completion = completion;
      this.beforehand = beforehand;
      this.afterwards = afterwards;
    }

    /**
     * The same release, preceded on the context, in the same task, by {@code step}: for example a note of which
     * answer is being delivered, so that a call the continuation makes can be told apart from one made earlier.
     */
    public Release beforehand(Runnable step) {
      Runnable before = beforehand;
      return new Release(gate, completion, before == null ? step : () -> {
        before.run();
        step.run();
      }, afterwards);
    }

    /** The gate this release completes. */
    public Gate<?> gate() {
      return gate;
    }

    /**
     * The same release, followed on the context, in the same task, by {@code step}: for example a look at the state
     * the continuation left, before the next gate opens.
     */
    public Release andThen(Runnable step) {
      Runnable before = afterwards;
      return new Release(gate, completion, beforehand, before == null ? step : () -> {
        before.run();
        step.run();
      });
    }

    private void run() {
      if (!gate.isPending()) {
        throw new IllegalStateException("This gate was already released: a gate answers one call, once: " + gate);
      }
      if (beforehand != null) {
        beforehand.run();
      }
      completion.run();
      if (afterwards != null) {
        afterwards.run();
      }
    }

    @Override
    public String toString() {
      return "Release(" + gate + ")";
    }
  }

  /**
   * Completes the gate on its caller's context and waits for that task. Unlike {@link #runOn}, what the completion
   * throws is not brought back to the test: it comes from the learner's continuation, and must reach Vert.x (and so
   * the guard's "exception nobody handled") as it would in production.
   */
  private void release(Runnable completion) {
    if (!isPending()) {
      throw new IllegalStateException("This gate was already released: a gate answers one call, once.");
    }
    if (context == null) {
      completion.run();
      return;
    }
    try {
      RunOnContext.run(context, completion, RELEASE_TIMEOUT);
    } catch (Exception e) {
      throw new IllegalStateException("The event loop did not run the gate's completion within "
          + RELEASE_TIMEOUT_SECONDS + " s: is it blocked?", e);
    }
  }

  /** Runs {@code completion} in one task of {@code context}, waits for it, and rethrows what it threw. */
  private static void runOn(Context context, Runnable completion) {
    if (context == null) {
      completion.run();
      return;
    }
    try {
      RunOnContext.call(context, () -> {
        completion.run();
        return null;
      }, RELEASE_TIMEOUT);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException("The event loop did not run the gate's completion within "
          + RELEASE_TIMEOUT_SECONDS + " s: is it blocked?", e);
    }
  }

  @Override
  public String toString() {
    return "Gate(" + argument + (isPending() ? ", pending" : ", released") + (callSite == null ? "" : ", called from "
        + callSite) + ")";
  }
}
