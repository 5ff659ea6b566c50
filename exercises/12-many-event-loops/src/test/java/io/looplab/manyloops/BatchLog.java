package io.looplab.manyloops;

import io.vertx.core.eventbus.DeliveryContext;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * When each batch was handled, and on which thread, seen by an event-bus interceptor of the test's own. Inbound
 * interceptors run on the receiving instance's event loop, right around its handler, so a batch's span is the
 * time its handler ran.
 *
 * <p>It answers the question a race test must ask before it trusts "nothing was lost": did the loops really run
 * at the same moment? Two spans of different threads that overlap in time mean two loops were counting at once,
 * provided neither thread was taken off its core midway. So only spans whose thread was on a core nearly all the
 * time count (its CPU time is at least {@link #ON_CORE_SHARE} of the span), and the time covered by two or more
 * such spans at once is time the loops were truly counting side by side. On a crowded 2-core machine, four loops
 * may take turns on one core for a long while, and then a racy count can get lucky.
 */
final class BatchLog {

  private static final double ON_CORE_SHARE = 0.9;
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private record Span(String thread, long start, long end, long cpu) {
  }

  private final Queue<Span> spans = new ConcurrentLinkedQueue<>();
  private final Set<String> threads = ConcurrentHashMap.newKeySet();

  void intercept(DeliveryContext<Object> delivery) {
    if (!PageStatsVerticle.VIEWS.equals(delivery.message().address())) {
      delivery.next();
      return;
    }
    long cpu = CPU.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    try {
      delivery.next();
    } finally {
      long end = System.nanoTime();
      String thread = Thread.currentThread().getName();
      spans.add(new Span(thread, start, end, CPU.getCurrentThreadCpuTime() - cpu));
      threads.add(thread);
    }
  }

  /** Forgets the spans seen so far: call it while no batch is being handled. */
  void startRound() {
    spans.clear();
  }

  String threads() {
    Set<String> names = new TreeSet<>(threads);
    return names.size() + (names.size() == 1 ? " event-loop thread (" : " event-loop threads (")
        + String.join(", ", names) + ")";
  }

  /** Time during which spans of two or more threads, each spent on a core, overlapped, since the round began. */
  long parallelNanos() {
    List<long[]> edges = new ArrayList<>(); // {time, +1 or -1}
    for (Span span : spans) {
      if (span.cpu() >= ON_CORE_SHARE * (span.end() - span.start())) {
        edges.add(new long[] {span.start(), 1});
        edges.add(new long[] {span.end(), -1});
      }
    }
    // Ends before starts at the same instant: spans that merely touch do not overlap.
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long parallel = 0;
    int running = 0;
    long since = 0;
    for (long[] edge : edges) {
      if (running >= 2) {
        parallel += edge[0] - since;
      }
      running += (int) edge[1];
      since = edge[0];
    }
    return parallel;
  }
}
