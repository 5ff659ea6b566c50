package io.looplab.grader.internal.leaks;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Vert.x's metrics SPI, used for bookkeeping only: Vert.x tells it when a server starts listening or a worker pool
 * is created, and again when each one is closed. Whatever is still open after an undeploy has leaked. It also keeps
 * the {@link InFlight} requests and tasks, for a test that runs out of time.
 */
public final class ResourceTracker implements VertxMetrics {

  /** Pools that belong to Vert.x itself and live as long as the instance. */
  private static final Set<String> BUILT_IN_POOLS = Set.of("vert.x-worker-thread", "vert.x-internal-blocking", "vert.x-virtual-thread");

  private final Set<String> open = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> openPools = new ConcurrentHashMap<>();
  private final BiConsumer<Vertx, ResourceTracker> onCreated;
  private final InFlight inFlight = new InFlight();
  private volatile boolean closed;

  /** @param onCreated told once the instance exists, with this tracker */
  public ResourceTracker(BiConsumer<Vertx, ResourceTracker> onCreated) {
    this.onCreated = onCreated;
  }

  /** What is open right now, described for a learner. */
  public List<String> openResources() {
    return open.stream().sorted().toList();
  }

  /** The worker pools the code created and has not closed yet, by name, with their maximum size. */
  public Map<String, Integer> openWorkerPools() {
    return new TreeMap<>(openPools);
  }

  /** The requests not answered yet and the worker tasks not done yet. */
  public InFlight inFlight() {
    return inFlight;
  }

  /** Whether the Vert.x instance has closed. */
  public boolean closed() {
    return closed;
  }

  @Override
  public void vertxCreated(Vertx vertx) {
    onCreated.accept(vertx, this);
  }

  @Override
  public void close() {
    closed = true;
  }

  @Override
  public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
    String name = "an HTTP server" + portOf(localAddress);
    open.add(name);
    return new HttpServerMetrics<Object, Object, Object>() {
      @Override
      public Object requestBegin(Object socketMetric, HttpRequest request) {
        return inFlight.httpRequestBegan(request);
      }

      @Override
      public void responseEnd(Object requestMetric, HttpResponse response, long bytesWritten) {
        inFlight.httpRequestEnded(requestMetric);
      }

      @Override
      public void requestReset(Object requestMetric) {
        inFlight.httpRequestEnded(requestMetric);
      }

      @Override
      public void close() {
        open.remove(name);
      }
    };
  }

  @Override
  public EventBusMetrics<?> createEventBusMetrics() {
    return new EventBusMetrics<String>() {
      @Override
      public String handlerRegistered(String address) {
        return address;
      }

      @Override
      public void handlerUnregistered(String address) {
        inFlight.busHandlerRemoved(address);
      }
    };
  }

  @Override
  public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
    String name = "a TCP server" + portOf(localAddress);
    open.add(name);
    return new TCPMetrics<Object>() {
      @Override
      public void close() {
        open.remove(name);
      }
    };
  }

  private static String portOf(SocketAddress address) {
    return address.port() > 0 ? " on port " + address.port() : " (on the port the system chose)";
  }

  @Override
  public PoolMetrics<?, ?> createPoolMetrics(String type, String name, int maxSize) {
    PoolMetrics<Object, Object> tasks = inFlight.taskCounter(name);
    if (BUILT_IN_POOLS.contains(name)) {
      return tasks;
    }
    String label = "the " + type + " pool '" + name + "' (size " + maxSize + ")";
    open.add(label);
    openPools.put(name, maxSize);
    return new PoolMetrics<Object, Object>() {
      @Override
      public Object enqueue() {
        return tasks.enqueue();
      }

      @Override
      public void dequeue(Object queueMetric) {
        tasks.dequeue(queueMetric);
      }

      @Override
      public Object begin() {
        return tasks.begin();
      }

      @Override
      public void end(Object taskMetric) {
        tasks.end(taskMetric);
      }

      @Override
      public void close() {
        open.remove(label);
        openPools.remove(name);
      }
    };
  }
}
