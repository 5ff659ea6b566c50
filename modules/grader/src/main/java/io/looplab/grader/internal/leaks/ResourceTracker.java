package io.looplab.grader.internal.leaks;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Vert.x's metrics SPI, used for bookkeeping only: Vert.x tells it when a server starts listening or a worker pool
 * is created, and again when each one is closed. Whatever is still open after an undeploy has leaked.
 */
public final class ResourceTracker implements VertxMetrics {

  /** Pools that belong to Vert.x itself and live as long as the instance. */
  private static final Set<String> BUILT_IN_POOLS = Set.of("vert.x-worker-thread", "vert.x-internal-blocking", "vert.x-virtual-thread");

  private final Set<String> open = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> openPools = new ConcurrentHashMap<>();
  private final BiConsumer<Vertx, ResourceTracker> onCreated;

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

  @Override
  public void vertxCreated(Vertx vertx) {
    onCreated.accept(vertx, this);
  }

  @Override
  public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
    String name = "an HTTP server" + portOf(localAddress);
    open.add(name);
    return new HttpServerMetrics<Object, Object, Object>() {
      @Override
      public void close() {
        open.remove(name);
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
    if (BUILT_IN_POOLS.contains(name)) {
      return null;
    }
    String label = "the " + type + " pool '" + name + "' (size " + maxSize + ")";
    open.add(label);
    openPools.put(name, maxSize);
    return new PoolMetrics<Object, Object>() {
      @Override
      public void close() {
        open.remove(label);
        openPools.remove(name);
      }
    };
  }
}
