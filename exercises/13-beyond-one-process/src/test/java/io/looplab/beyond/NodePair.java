package io.looplab.beyond;

import io.looplab.grader.nodes.NodeProcess;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/** Node A and node B of one part, started on first use. A start that failed fails every later test at once. */
final class NodePair {
  /** Starts tried when a node finds its port taken: another program may bind a port between its choice and use. */
  private static final int STARTS = 3;
  private final Supplier<Nodes> start;
  private Nodes nodes;
  private AssertionFailedError startFailure;

  NodePair(Supplier<Nodes> start) {
    this.start = start;
  }

  Nodes get() {
    if (startFailure != null) {
      throw startFailure;
    }
    for (int tried = 1; nodes == null; tried++) {
      try {
        nodes = start.get();
      } catch (AssertionFailedError e) {
        if (tried < STARTS && String.valueOf(e.getMessage()).contains("is already in use")) {
          continue;
        }
        startFailure = e;
        throw e;
      }
    }
    return nodes;
  }

  /** The running nodes, for a test that shuts them down itself; this pair forgets them. */
  Nodes handOver() {
    Nodes running = get();
    nodes = null;
    return running;
  }

  void close() {
    if (nodes != null) {
      nodes.close();
    }
  }

  /** Launches both nodes, then waits until both are ready; if either is not, both are closed. */
  static Nodes startPair(Supplier<NodeProcess> a, Supplier<NodeProcess> b, boolean cluster) {
    NodeProcess nodeA = a.get();
    NodeProcess nodeB = b.get();
    try {
      return new Nodes(nodeA.awaitReady(SeatNode.startTimeout(cluster)), nodeB.awaitReady(SeatNode.startTimeout(cluster)));
    } catch (RuntimeException | Error e) {
      nodeA.close();
      nodeB.close();
      throw e;
    }
  }

  /**
   * A port nobody listens on right now, for a cluster node to take. Each node must know the other's port before
   * either starts, so the port is chosen here rather than by the system at bind time. It is chosen below the range
   * the system hands out to outgoing connections and to port 0: a port of that range can be taken by any connection
   * on the machine before the node binds it (seen once in the self-test, with a grading beside it: "Port [45965] is
   * already in use").
   */
  static int freePort() {
    int rangeStart = ephemeralRangeStart();
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(Math.max(1024, rangeStart - 10_000), rangeStart);
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException taken) {
        // try another
      }
    }
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on this machine", e);
    }
  }

  /** Where the ports for outgoing connections start: Linux says so in /proc, and 32768 is its default. */
  private static int ephemeralRangeStart() {
    try {
      // Not Files.readString: it trusts the file's size, and /proc says 0 (on JDK 17 it returned "3" here).
      return Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
          .split("\\s+")[0]);
    } catch (IOException | RuntimeException notLinux) {
      return 32_768;
    }
  }
}
