package io.looplab.beyond;

import io.looplab.grader.nodes.NodeProcess;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.function.Supplier;

/** Node A and node B of one part, started on first use. A start that failed fails every later test at once. */
final class NodePair {
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
    if (nodes == null) {
      try {
        nodes = start.get();
      } catch (AssertionFailedError e) {
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

  /** A port nobody listens on right now, for a cluster node to take. */
  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on this machine", e);
    }
  }
}
