package io.looplab.singleowner;

import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Signal;
import io.looplab.grader.testkit.Await;
import io.looplab.legacy.CatalogBackend;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.ext.web.client.HttpResponse;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The old catalog server, played by the test: every lookup blocks the thread that makes it until the test answers or
 * fails it. It notes which thread made each call, whether that thread was an event loop, and the learner's line that
 * called the legacy client.
 */
final class HeldCatalog implements CatalogBackend {

  /** A lookup the test has not answered yet; it gives up on its own after this long (only a broken run gets there). */
  private static final long GIVE_UP_SECONDS = 30;

  /**
   * One lookup: the item asked for, the thread that asked, the answer the test gives, and the items of the lookups
   * that were still inside the client, unanswered, when this one began (empty while the client has one call at a
   * time).
   */
  record Call(String item, String thread, boolean onEventLoop, String callSite, CompletableFuture<String> answer,
      List<String> alongside) {
  }

  private final List<Call> calls = new ArrayList<>();
  private final Signal called = new Signal();

  /** How the test describes an item: what a released lookup answers. */
  static String descriptionOf(String item) {
    return "a fine " + item + " from the old catalog";
  }

  @Override
  public String lookUp(String item) throws IOException {
    Call call;
    synchronized (calls) {
      List<String> alongside = calls.stream().filter(c -> !c.answer.isDone()).map(Call::item).toList();
      call = new Call(item, Thread.currentThread().getName(), Context.isOnEventLoopThread(),
          CallSite.ofCurrentCallAndCallee().orElse("LegacyCatalog.describe"), new CompletableFuture<>(), alongside);
      calls.add(call);
    }
    called.fire();
    try {
      return call.answer.get(GIVE_UP_SECONDS, TimeUnit.SECONDS); // blocks, as the real client does
    } catch (ExecutionException e) {
      throw (IOException) e.getCause();
    } catch (TimeoutException | InterruptedException e) {
      throw new IOException("the test never answered this lookup", e);
    }
  }

  /**
   * Waits until {@code request} has made {@code count} lookups, and fails with what was observed if it has not
   * within {@code within}, or if it was answered without them (then they will never come: no need to wait more).
   */
  void requireLookups(int count, Future<?> request, String after, Duration within) {
    request.onComplete(done -> called.fire());
    called.await(() -> calls().size() >= count || request.isComplete(), within.toMillis());
    if (calls().size() < count) {
      String when = !request.isComplete() ? "within " + Await.inWords(within) + " of " + after
          : "before " + after + " was answered (" + (request.succeeded() ? answerOf(request.result())
              : "failed: " + request.cause()) + ")";
      throw new AssertionFailedError("No lookup reached the legacy catalog " + when + ". The catalog worker must "
          + "call LegacyCatalog.describe for each " + Protocol.DESCRIBE + " request at " + Protocol.CATALOG + ".");
    }
  }

  /**
   * Waits until {@code count} lookups have been made in all, or {@code request} is answered without them, or
   * {@code within} passes; whether the lookups came.
   */
  boolean lookupsArrive(int count, Future<?> request, Duration within) {
    request.onComplete(done -> called.fire());
    called.await(() -> calls().size() >= count || request.isComplete(), within.toMillis());
    return calls().size() >= count;
  }

  /** Waits until {@code count} lookups have been made in all, or {@code within} passes; whether they came. */
  boolean lookupsArrive(int count, Duration within) {
    return called.await(() -> calls().size() >= count, within.toMillis());
  }

  /** An answer or an HTTP response, in words for a message. */
  static String answerOf(Object answer) {
    return answer instanceof HttpResponse<?> http ? http.statusCode() + " " + http.bodyAsString()
        : String.valueOf(answer);
  }

  List<Call> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** Answers lookup number {@code index} (from 0) with the item's description. */
  void answer(int index) {
    Call call = calls().get(index);
    call.answer.complete(descriptionOf(call.item));
  }

  /** Fails lookup number {@code index} (from 0) as the server would: with an IOException saying {@code reason}. */
  void fail(int index, String reason) {
    calls().get(index).answer.completeExceptionally(new IOException(reason));
  }

  /** Answers every lookup still waiting, so that no worker thread stays parked after a test. */
  void answerAll() {
    calls().forEach(call -> call.answer.complete(descriptionOf(call.item)));
  }
}
