package io.looplab.grader.nodes;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A node for NodeProcessTest: echoes, fails, exits, prints, holds a local lock, or forks a grandchild on demand. */
public final class EchoNode {

  public static void main(String[] args) throws Exception {
    NodeChannel channel = NodeChannel.open();
    System.out.println("printed by the node: never an answer");
    Vertx vertx = Vertx.vertx();
    channel.serve(vertx.getOrCreateContext(), (verb, argument) -> switch (verb) {
      case "echo" -> Future.succeededFuture(argument);
      case "fail" -> Future.failedFuture(new IllegalArgumentException(argument));
      case "exit" -> {
        System.err.println("about to exit with status 3");
        System.exit(3);
        yield Future.succeededFuture();
      }
      case "lock" -> vertx.sharedData().getLocalLock(argument).map("holding " + argument);
      case "grandchild" -> Future.succeededFuture(String.valueOf(startGrandchild().pid()));
      case "quit" -> {
        String leftovers = String.join(", ", io.looplab.grader.leaks.ShutdownCheck.leftoversOf(vertx));
        yield vertx.close().map(v -> leftovers.isEmpty() ? "clean" : leftovers);
      }
      default -> Future.failedFuture("unknown verb " + verb);
    });
  }

  /** A process of the node's own that would outlive it unless someone kills it. */
  private static Process startGrandchild() {
    try {
      return new ProcessBuilder("sleep", "600").start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
