package io.looplab.beyond;

import io.looplab.grader.nodes.NodeProcess;

/** Node A and node B, started together. */
record Nodes(NodeProcess a, NodeProcess b) implements AutoCloseable {
  @Override
  public void close() {
    a.close();
    b.close();
  }
}
