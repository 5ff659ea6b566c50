package io.looplab.eventloop;

import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The test's user directory. Every lookup waits until the test answers it (a {@link GatedDependency} per kind of
 * lookup), and the answer then completes the stage on the directory's own client thread, as the real vendor client
 * would: never on a Vert.x thread. So the learner's code sees the answer arrive on a foreign thread, and the test
 * alone decides which lookup answers when.
 */
final class GatedDirectory implements UserDirectory {

  private static final AtomicInteger CLIENTS = new AtomicInteger();

  final GatedDependency<String, JsonObject> profiles = new GatedDependency<>();
  final GatedDependency<String, JsonArray> orders = new GatedDependency<>();
  /** The client's I/O thread, where every answer is delivered. */
  final String clientThread = "directory-client-" + CLIENTS.incrementAndGet();
  private volatile FieldWatch watch;
  private final ExecutorService client = Executors.newSingleThreadExecutor(task -> {
    Thread thread = new Thread(task, clientThread);
    thread.setDaemon(true);
    return thread;
  });

  /** Labels of lookups answered before the call returns ("ada's profile lookup"), with whether they fail. */
  private final Map<String, Boolean> atOnce = new ConcurrentHashMap<>();
  /** The lookups answered at once so far, by label. */
  private final List<String> answeredAtOnce = new CopyOnWriteArrayList<>();

  @Override
  public CompletionStage<JsonObject> profile(String user) {
    Boolean fails = atOnce.get(user + "'s profile lookup");
    if (fails != null) {
      answeredAtOnce.add(user + "'s profile lookup");
      return fails ? CompletableFuture.failedFuture(new DirectoryDown(Users.outage("profile", user)))
          : CompletableFuture.completedFuture(Users.profileOf(user));
    }
    return answeredOnTheClientThread("profile", user, profiles.apply(user));
  }

  @Override
  public CompletionStage<JsonArray> orders(String user) {
    Boolean fails = atOnce.get(user + "'s orders lookup");
    if (fails != null) {
      answeredAtOnce.add(user + "'s orders lookup");
      return fails ? CompletableFuture.failedFuture(new DirectoryDown(Users.outage("orders", user)))
          : CompletableFuture.completedFuture(Users.ordersOf(user));
    }
    return answeredOnTheClientThread("orders", user, orders.apply(user));
  }

  /**
   * From now on, the lookup labelled {@code label} returns a stage that is already complete, on the caller's own
   * thread: answered, or failed when {@code fails}. Such a lookup never waits for the test, and is not counted in
   * {@link #calls()}.
   */
  void answerAtOnce(String label, boolean fails) {
    atOnce.put(label, fails);
  }

  /** The lookups answered at once so far. */
  List<String> answeredAtOnce() {
    return List.copyOf(answeredAtOnce);
  }

  /** The pending lookups of both kinds, as labelled gates, in the order they were called within each kind. */
  List<Lookup> pending() {
    List<Lookup> pending = new ArrayList<>();
    profiles.calledSoFar().stream().filter(Gate::isPending).forEach(g -> pending.add(Lookup.profile(g)));
    orders.calledSoFar().stream().filter(Gate::isPending).forEach(g -> pending.add(Lookup.orders(g)));
    return pending;
  }

  int calls() {
    return profiles.calls() + orders.calls();
  }

  /** Waits until the client thread has run every answer handed to it so far. */
  void finishWhatIsRunning(Duration within) {
    try {
      client.submit(() -> { }).get(within.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
      // the thread is stopped, or busy in the learner's callback: the evidence is what it is
    }
  }

  /** Stops the client thread; it is the test's, so no shutdown check ever counts it. */
  void close() {
    client.shutdownNow();
  }

  /**
   * From now on, each answer is delivered under {@code watch}: a field of the learner's that changes while the client
   * thread delivers it is noted.
   */
  void watch(FieldWatch watch) {
    this.watch = watch;
  }

  private <T> CompletionStage<T> answeredOnTheClientThread(String kind, String user, Future<T> gated) {
    CompletableFuture<T> answer = new CompletableFuture<>();
    gated.onComplete(outcome -> client.execute(() -> {
      Runnable delivery = () -> {
        if (outcome.succeeded()) {
          answer.complete(outcome.result());
        } else {
          answer.completeExceptionally(outcome.cause());
        }
      };
      FieldWatch current = watch;
      if (current == null) {
        delivery.run();
      } else {
        current.around("the answer to " + user + "'s " + kind + " lookup", delivery);
      }
    }));
    return answer;
  }

  /** One pending lookup: which kind, for whom, and its gate. */
  record Lookup(String kind, String user, Gate<?> gate) {

    static Lookup profile(Gate<JsonObject> gate) {
      return new Lookup("profile", String.valueOf(gate.argument()), gate);
    }

    static Lookup orders(Gate<JsonArray> gate) {
      return new Lookup("orders", String.valueOf(gate.argument()), gate);
    }

    /** "ada's profile lookup" */
    String label() {
      return user + "'s " + kind + " lookup";
    }

    /** Answers it with the user's data. */
    @SuppressWarnings("unchecked")
    void answer() {
      if (kind.equals("profile")) {
        ((Gate<JsonObject>) gate).open(Users.profileOf(user));
      } else {
        ((Gate<JsonArray>) gate).open(Users.ordersOf(user));
      }
    }

    /** Fails it with the directory's error. */
    void fail() {
      gate.fail(new DirectoryDown(Users.outage(kind, user)));
    }

    String calledFrom() {
      return gate.callSite().map(site -> " (called from " + site + ")").orElse("");
    }
  }
}
