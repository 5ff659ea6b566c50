package io.looplab.eventloop;

import io.looplab.eventloop.GatedDirectory.Lookup;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.VerticleContext;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.DeployedService;
import io.looplab.grader.testkit.OnContext;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.looplab.grader.testkit.Checks.require;

/**
 * The learner's DashboardVerticle, deployed with the test's directory ({@link GatedDirectory}) and a fresh
 * {@link VisitLog}, plus what the tests do with it: ask for dashboards, answer the lookups in the order a test
 * chooses, and read the log's evidence of which thread touched it. It is compiled with the graded tests, so the guard
 * never mistakes its frames for the learner's code.
 */
final class DashboardScene implements AutoCloseable {

  /** How long the test waits for what a correct solution does at once: a deployment, a lookup call, an answer. */
  static final Duration WAIT = Duration.ofSeconds(5);

  /**
   * How long the test waits for a lookup that a correct solution has already made, before it says the code does not
   * make it (yet). A correct dashboard starts both lookups in the same task, microseconds apart, so only a broken one
   * ever waits this out; the margin is wide because a loaded machine can pause any thread for a while.
   */
  static final long NOT_CALLED_MILLIS = 2_000;

  /**
   * How long the test waits for an answer once it has answered every lookup the code made and the code has then gone
   * quiet for {@link #NOT_CALLED_MILLIS}: a correct dashboard answers within microseconds of its last lookup, so this
   * is all margin, for a loaded machine.
   */
  static final Duration AFTER_THE_LAST_LOOKUP = Duration.ofSeconds(2);

  final GatedDirectory directory = new GatedDirectory();
  final VisitLog visits = new VisitLog();
  private final Vertx vertx;
  private final DeployedService service;
  private final List<String> released = new ArrayList<>();
  /** Who each request asked for, by its answer: a request that has made no lookup yet is given longer to make one. */
  private final Map<Future<HttpResponse<Buffer>>, String> askedFor = new IdentityHashMap<>();
  /** The context Vert.x gave the verticle when it deployed it, and that context's event-loop thread. */
  private final Context verticleContext;
  private final String loopThread;
  /** The verticle's own fields, watched while the directory's client thread delivers an answer. */
  private final FieldWatch fields;

  DashboardScene(Vertx vertx) {
    this.vertx = vertx;
    // A new connection for every request: code that answers from a foreign thread can leave a kept-alive
    // connection in a state where the next request on it is never read, and that must not decide which test fails.
    DashboardVerticle verticle = new DashboardVerticle(directory, visits);
    this.service = DeployedService.deploy(vertx, verticle, DashboardVerticle::port,
        WebClient.create(vertx, new WebClientOptions().setKeepAlive(false)), WAIT);
    this.verticleContext = ((VertxInternal) vertx).deploymentManager().deployment(service.deploymentId())
        .deployment().contexts().iterator().next();
    this.fields = new FieldWatch(verticle, verticleContext, directory.clientThread);
    directory.watch(fields);
    this.loopThread = OnContext.call(verticleContext, () -> Thread.currentThread().getName(), WAIT);
  }

  String deploymentId() {
    return service.deploymentId();
  }

  /** Asks for {@code user}'s dashboard over HTTP: {@code GET /dashboard?user=...}. */
  Future<HttpResponse<Buffer>> ask(String user) {
    Future<HttpResponse<Buffer>> answer = service.get("/dashboard?user=" + user);
    askedFor.put(answer, user);
    return answer;
  }

  /** Waits for the first lookup of a request: either kind, whichever the code makes first. */
  Lookup awaitFirstLookup(String user) {
    if (!callsReach(1, WAIT.toMillis(), () -> false)) {
      throw new AssertionFailedError(user + "'s request made no lookup within " + Await.inWords(WAIT) + ". The "
          + "dashboard must ask the directory for the profile and the orders: directory.profile(user) and "
          + "directory.orders(user).");
    }
    return directory.pending().get(0);
  }

  /** Whether a second lookup arrives within {@code millis} while the first is still unanswered. */
  boolean secondLookupArrivesWithin(long millis) {
    return callsReach(2, millis, () -> false);
  }

  /**
   * Answers lookups until every one of {@code answers} has come: whenever several lookups are pending, the one that
   * comes first in {@code priority} (labels such as "ada's profile lookup") is answered, one at a time, and the ones
   * in {@code failing} fail with the directory's error. Returns when every answer has come, or when no answer is
   * missing a lookup that the code has made (the code waits for nothing the test holds, and made no call for
   * {@link #NOT_CALLED_MILLIS}): the test's own wait for the answer then says what is missing. A request that has made
   * no lookup at all is given {@link #WAIT} to make its first, as {@link #awaitFirstLookup} is: on a loaded machine
   * the request itself can take that long to arrive, and only a request that never arrives waits it out.
   */
  void drive(List<String> priority, Set<String> failing, List<Future<HttpResponse<Buffer>>> answers) {
    BooleanSupplier allAnswered = () -> answers.stream().allMatch(Future::isComplete);
    int releasedBefore = released.size();
    while (!allAnswered.getAsBoolean()) {
      // Counted before the pending lookups are read: a call that arrives in between then ends the wait below at
      // once, instead of being taken for one that came before it (and the wait for one more call never ending).
      int callsSeen = directory.calls();
      List<Lookup> pending = new ArrayList<>(directory.pending());
      if (pending.isEmpty()) {
        Optional<String> silent = answers.stream().filter(answer -> !answer.isComplete())
            .map(askedFor::get).filter(user -> user != null && lookupsFor(user) < asksFor(user)).findFirst();
        long quiet = silent.isPresent() ? WAIT.toMillis() : NOT_CALLED_MILLIS;
        if (!callsReach(callsSeen + 1, quiet, allAnswered)) {
          if (silent.isPresent() && !allAnswered.getAsBoolean()) {
            throw new AssertionFailedError(silent.get() + "'s request made no lookup and got no answer within "
                + Await.inWords(WAIT) + ". The dashboard must ask the directory for the profile and the orders: "
                + "directory.profile(user) and directory.orders(user), as soon as the request arrives.");
          }
          return;
        }
        continue;
      }
      pending.sort(Comparator.comparingInt(lookup -> {
        int rank = priority.indexOf(lookup.label());
        return rank < 0 ? Integer.MAX_VALUE : rank;
      }));
      Lookup next = pending.get(0);
      released.add(next.label() + (failing.contains(next.label()) ? " (failed)" : ""));
      require(released.size() - releasedBefore <= 2 * answers.size(), "The directory was asked "
          + directory.calls() + " times for " + answers.size() + " dashboard(s). Ask for each user's profile and "
          + "orders once per request.");
      if (failing.contains(next.label())) {
        next.fail();
      } else {
        next.answer();
      }
    }
  }

  private long asksFor(String user) {
    return askedFor.values().stream().filter(user::equals).count();
  }

  private long lookupsFor(String user) {
    return Stream.concat(directory.profiles.calledSoFar().stream(), directory.orders.calledSoFar().stream())
        .filter(gate -> user.equals(gate.argument())).count();
  }

  /**
   * Waits until the lookup labelled {@code label} ("ada's orders lookup") is pending, holding every other lookup
   * unanswered, and returns it; empty when the directory answered it at once, before the call returned. Only a design
   * that makes its lookups one after the other never makes it while the others are held: after
   * {@link #NOT_CALLED_MILLIS} with no new call, the held ones are answered, so that such a design is graded here on
   * its failure handling alone (the overlap is graded by {@code LookupsOverlapTest}).
   */
  Optional<Lookup> awaitHoldingTheOthers(String user, String label) {
    long firstDeadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      int callsSeen = directory.calls();
      if (directory.answeredAtOnce().contains(label)) {
        return Optional.empty();
      }
      Optional<Lookup> wanted = directory.pending().stream().filter(l -> l.label().equals(label)).findFirst();
      if (wanted.isPresent()) {
        return wanted;
      }
      boolean none = callsSeen == 0 && directory.answeredAtOnce().isEmpty();
      if (none && System.nanoTime() - firstDeadline > 0) {
        throw new AssertionFailedError(user + "'s request made no lookup within " + Await.inWords(WAIT) + ". The "
            + "dashboard must ask the directory for the profile and the orders: directory.profile(user) and "
            + "directory.orders(user).");
      }
      if (!callsReach(callsSeen + 1, none ? 10 : NOT_CALLED_MILLIS, () -> directory.answeredAtOnce().contains(label))
          && !none && !directory.answeredAtOnce().contains(label)) {
        List<Lookup> held = directory.pending();
        if (held.isEmpty()) {
          throw new AssertionFailedError(label + " was never made: the test answered " + releasedSoFar()
              + ", and no lookup was pending. The dashboard must ask the directory for the profile and the orders.");
        }
        held.forEach(lookup -> release(lookup, false));
      }
    }
  }

  /** Answers {@code lookup}, or fails it with the directory's error. */
  void release(Lookup lookup, boolean fail) {
    released.add(lookup.label() + (fail ? " (failed)" : ""));
    if (fail) {
      lookup.fail();
    } else {
      lookup.answer();
    }
  }

  /** The lookups the test has answered so far, in order: "ada's profile lookup, ada's orders lookup (failed)". */
  String releasedSoFar() {
    return released.isEmpty() ? "none" : String.join(", ", released);
  }

  /** The response to a request, once {@link #drive} has returned: waited for within {@link #AFTER_THE_LAST_LOOKUP}. */
  HttpResponse<Buffer> responseTo(Future<HttpResponse<Buffer>> answer, String ifLate) {
    return Await.result(answer, AFTER_THE_LAST_LOOKUP, ifLate);
  }

  /** Asserts that {@code response} is {@code user}'s dashboard: 200, and the profile and orders of that user. */
  void assertDashboard(Future<HttpResponse<Buffer>> answer, String user) {
    HttpResponse<Buffer> response = responseTo(answer, user + "'s dashboard did not answer within "
        + Await.inWords(AFTER_THE_LAST_LOOKUP) + " after the test had answered every lookup it made ("
        + releasedSoFar() + ").");
    JsonObject expected = Users.dashboardOf(user);
    String body0 = String.valueOf(response.bodyAsString());
    boolean othersFailure = body0.contains("(asked for ")
        && !body0.contains("(asked for " + user + ")");
    require(response.statusCode() == 200, user + "'s dashboard should answer 200 with " + expected.encode()
        + ", but it answered " + response.statusCode() + ": " + response.bodyAsString() + " (the test answered: "
        + releasedSoFar() + ")." + (othersFailure ? " That failure was another user's lookup, not one of "
        + user + "'s: each answer must be decided by that request's own lookups. Keep what a request is waiting "
        + "for, its failure too, in its own futures or local variables, never in a field of the verticle, which "
        + "every request in flight shares." : ""));
    JsonObject body;
    try {
      body = response.bodyAsJsonObject();
    } catch (DecodeException notJson) {
      throw new AssertionFailedError(user + "'s dashboard should answer the JSON " + expected.encode() + ", but it "
          + "answered " + response.bodyAsString() + ".");
    }
    require(expected.equals(body), user + "'s dashboard should be " + expected.encode() + ", but it was "
        + (body == null ? "empty" : body.encode()) + " (the test answered, in this order: " + releasedSoFar()
        + "). Each answer must be built from that request's own lookups: keep what a request is waiting for in its "
        + "own futures or local variables, never in a field of the verticle that the next request overwrites.");
  }

  /**
   * Every call into the VisitLog of the given methods, in order. The task that wrote the last answer may still be
   * running when the test reads it (code may touch the log after end()), so the verticle's loop, the directory's
   * client thread, then the loop again (where the client hands an answer back) each finish what they are running first.
   */
  List<VisitLog.Access> accesses(Set<String> methods) {
    OnContext.run(verticleContext, () -> { }, WAIT);
    directory.finishWhatIsRunning(WAIT);
    OnContext.run(verticleContext, () -> { }, WAIT);
    return visits.accesses().stream().filter(access -> methods.contains(access.method())).toList();
  }

  /**
   * The first write to the verticle's own state that the directory's client thread made, as a failure message; empty
   * when there was none.
   */
  Optional<String> stateWrittenOffTheLoop() {
    directory.finishWhatIsRunning(WAIT);
    return fields.writes().stream().findFirst().map(write -> "The verticle's own state was written off its event "
        + "loop: " + write + ". That thread runs whatever is chained on the directory's CompletionStage itself "
        + "(thenApply, thenAccept, whenComplete), and a future that belongs to no context runs its callbacks there "
        + "too. A verticle keeps plain fields without a lock only because its own event loop is the one thread that "
        + "touches them: written from the client's thread, an update can be lost or seen half-done. Write them after "
        + "the answer has come back to the verticle's context (Future.fromCompletionStage(stage, context), or "
        + "context.runOnContext(...)), or keep what a request needs in its own futures and local variables.");
  }

  /** The verticle's event-loop thread: the thread of the context Vert.x deployed it on. */
  String loopThread() {
    return loopThread;
  }

  /** The context Vert.x deployed the verticle on. */
  Context verticleContext() {
    return verticleContext;
  }

  /** What was wrong with the thread of {@code access}, with the advice for that kind of thread. */
  String wrongThread(VisitLog.Access access, String loop) {
    String call = "VisitLog." + access.method() + "(\"" + access.user() + "\")";
    String where = CallSite.of(access.stack()).map(site -> ", called from " + site).orElse("");
    String observed = call + " ran on " + access.thread() + where + ", not on the verticle's event loop " + loop
        + ". ";
    String why = "The log's counters are plain ints owned by that event loop: touched from another thread, a call "
        + "can overlap the loop's own calls, and an update is lost. ";
    if (access.thread().startsWith("directory-client")) {
      return observed + "That is the directory client's own thread, with no Vert.x context at all: the directory "
          + "completes its CompletionStage there, and a Vert.x future that belongs to no context "
          + "(Future.fromCompletionStage(stage) without a context, or a Promise.promise() completed from the "
          + "stage's callback) runs its callbacks on whichever thread completed it. " + why + "Make the lookups "
          + "deliver on the verticle's context: Future.fromCompletionStage(stage, context), or hop back with "
          + "context.runOnContext(...) before touching the log.";
    }
    if (access.thread().contains("worker")) {
      return observed + "That is a worker thread: code inside executeBlocking, or on a worker pool, runs there, "
          + "while a verticle's handlers run on its event loop. " + why + "Keep the call in the handler, or in the "
          + "onSuccess/onComplete that follows executeBlocking: those run back on the event loop.";
    }
    if (access.onEventLoop()) {
      return observed + "That is another event loop: the verticle's handlers always run on its own one, the same "
          + "thread each time, but vertx.runOnContext(...) or vertx.getOrCreateContext() called from a thread that "
          + "is not Vert.x's (the directory client's) makes a new context on whichever event loop comes next. " + why
          + "Hand the answer back to the verticle's own context: context.runOnContext(...) with the verticle's "
          + "context field, or Future.fromCompletionStage(stage, context).";
    }
    return observed + "That thread is not the verticle's: " + why + "Touch the log only from the verticle's own "
        + "handlers and the callbacks of futures that belong to its context.";
  }

  /**
   * Every access of {@code methods} that did not run on the verticle's event loop, described; empty when all did. On
   * the loop means on the thread of the context Vert.x deployed the verticle on, and on that context (Vert.x gives
   * each HTTP request a duplicate of the verticle's context, and a duplicate counts as the verticle's own: the kit's
   * one rule for it, {@link VerticleContext}).
   */
  List<String> offTheLoop(Set<String> methods) {
    String loop = loopThread;
    Context verticle = verticleContext;
    return accesses(methods).stream()
        .filter(access -> !access.thread().equals(loop)
            || !VerticleContext.isSameContext(access.context(), verticle))
        .map(access -> access.thread().equals(loop) ? otherContext(access, loop, verticle)
            : wrongThread(access, loop))
        .collect(Collectors.toList());
  }

  private static String otherContext(VisitLog.Access access, String loop, Context verticle) {
    return "VisitLog." + access.method() + "(\"" + access.user() + "\") ran on the right thread, " + loop
        + CallSite.of(access.stack()).map(site -> " (called from " + site + ")").orElse("") + ", but on "
        + VerticleContext.describe(access.context(), verticle) + ". "
        + "vertx.runOnContext(...) or vertx.getOrCreateContext() called from a thread that is not Vert.x's (the "
        + "directory client's) makes a new context of its own, on whichever event loop comes next: here it happened "
        + "to be the verticle's thread, next time it is another one. Hand the answer back to the verticle's own "
        + "context: context.runOnContext(...) with the verticle's context field, or "
        + "Future.fromCompletionStage(stage, context).";
  }

  /**
   * Answers every lookup still pending, as a real directory eventually would, then undeploys the verticle, if it is
   * still deployed, and stops the directory's client thread. A test that is done may leave a lookup unanswered (the
   * other one of a failed dashboard, say), and a correct design that waits for it on a worker thread would otherwise
   * hold the undeploy until it times out.
   */
  @Override
  public void close() {
    try {
      directory.pending().forEach(Lookup::answer);
      if (vertx.deploymentIDs().contains(deploymentId())) {
        Await.outcome(vertx.undeploy(deploymentId()), WAIT, "The dashboard did not undeploy.");
      }
    } finally {
      directory.close();
    }
  }

  /**
   * Waits up to {@code millis} until the directory has had {@code n} calls in all, or {@code stop} says to stop
   * waiting. Two gated dependencies and an HTTP answer cannot be awaited as one: this waits for a profile call in
   * slices of 10 ms and looks at the others between slices. It never waits for the slice itself: the wait ends as
   * soon as the awaited call has come.
   */
  private boolean callsReach(int n, long millis, BooleanSupplier stop) {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (directory.calls() < n) {
      if (stop.getAsBoolean()) {
        return false;
      }
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return false;
      }
      directory.profiles.arrivesWithin(directory.profiles.calls() + 1, Math.min(10, left));
    }
    return true;
  }
}
