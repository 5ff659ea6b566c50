package io.looplab.grader.internal.leaks;

import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.observability.HttpRequest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * What one Vert.x instance is in the middle of: the HTTP requests its servers received and have not answered, the
 * event-bus requests that wait for a reply, and the tasks in its worker pools. Vert.x tells it through the metrics
 * SPI and an outbound interceptor (see {@code GuardServiceProvider}); it is read only when a test runs out of time,
 * so that the report can say which request, which reply and which task were still pending then.
 */
public final class InFlight {

  /** How long a body may be in a message before it is cut: enough to recognise a name or an id. */
  private static final int BODY_CHARS = 40;

  private final Map<Object, Started> httpRequests = new ConcurrentHashMap<>();
  /** Keyed by the reply address, which Vert.x unregisters once the reply came or the request timed out. */
  private final Map<String, Started> busRequests = new ConcurrentHashMap<>();
  private final Map<Object, Task> tasks = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> queued = new ConcurrentHashMap<>();

  /** A request: what it is (built only when asked, so a message's body is never turned into text on the way). */
  private record Started(Supplier<String> what, String answer, long atNanos) {
  }

  /** A task running in a worker pool, on {@code thread}, for {@code seconds} so far. */
  public record RunningTask(String pool, Thread thread, double seconds) {
  }

  private record Task(String pool, Thread thread, long atNanos) {
  }

  /** A server received a request; the token it returns goes back to {@link #httpRequestEnded}. */
  public Object httpRequestBegan(HttpRequest request) {
    Object token = new Object();
    String what = "the HTTP request " + request.method() + " " + request.uri();
    httpRequests.put(token, new Started(() -> what, "response", System.nanoTime()));
    return token;
  }

  /** The request was answered, or its connection reset. */
  public void httpRequestEnded(Object token) {
    if (token != null) {
      httpRequests.remove(token);
    }
  }

  /** Someone sent a message that expects a reply at {@code replyAddress}. */
  public void busRequestSent(String address, Object body, String replyAddress) {
    busRequests.put(replyAddress, new Started(() -> "the event-bus request to '" + address + "' (body "
        + shortened(body) + ")", "reply", System.nanoTime()));
  }

  /** A handler went away: when it was a reply handler, its request got its reply or timed out. */
  public void busHandlerRemoved(String address) {
    if (address != null) {
      busRequests.remove(address);
    }
  }

  /** Counts the tasks of one worker pool: queued, and running on which thread. */
  public PoolMetrics<Object, Object> taskCounter(String pool) {
    AtomicInteger waiting = queued.computeIfAbsent(pool, p -> new AtomicInteger());
    return new PoolMetrics<>() {
      @Override
      public Object enqueue() {
        waiting.incrementAndGet();
        return Boolean.TRUE;
      }

      @Override
      public void dequeue(Object queueMetric) {
        waiting.decrementAndGet();
      }

      @Override
      public Object begin() {
        // Called on the thread that runs the task.
        Object token = new Object();
        tasks.put(token, new Task(pool, Thread.currentThread(), System.nanoTime()));
        return token;
      }

      @Override
      public void end(Object token) {
        if (token != null) {
          tasks.remove(token);
        }
      }
    };
  }

  /** One phrase per request not answered yet, HTTP first, oldest first. */
  public List<String> requests() {
    long now = System.nanoTime();
    List<String> pending = new ArrayList<>();
    for (Map<?, Started> requests : List.of(httpRequests, busRequests)) {
      requests.values().stream().sorted(Comparator.comparingLong(Started::atNanos))
          .forEach(r -> pending.add(r.what().get() + ", waiting " + seconds(now - r.atNanos()) + " for its "
              + r.answer()));
    }
    return pending;
  }

  /** The tasks running in worker pools now, longest-running first. */
  public List<RunningTask> runningTasks() {
    long now = System.nanoTime();
    return tasks.values().stream().sorted(Comparator.comparingLong(Task::atNanos))
        .map(task -> new RunningTask(task.pool(), task.thread(), (now - task.atNanos()) / 1e9)).toList();
  }

  /** One phrase per worker pool with tasks queued and not started yet. */
  public List<String> queuedTasks() {
    List<String> pending = new ArrayList<>();
    queued.forEach((pool, count) -> {
      int n = count.get();
      if (n > 0) {
        pending.add(n + " task(s) queued in the worker pool '" + pool + "', not started yet");
      }
    });
    return pending;
  }

  private static String shortened(Object body) {
    String text = String.valueOf(body);
    return text.length() > BODY_CHARS ? text.substring(0, BODY_CHARS) + "…" : text;
  }

  private static String seconds(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
  }
}
