package io.looplab.grader.nodes;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A node for NodeProcessTest: echoes, fails, exits, prints, holds a local lock, or forks a grandchild on demand. */
public final class EchoNode {

  public static void main(String[] args) {
    NodeChannel.run(() -> {
      System.out.println("printed by the node: never an answer");
      if (args.length > 0 && args[0].equals("fail-to-start")) {
        throw new IllegalStateException("no database at that address");
      }
      Vertx vertx = Vertx.vertx();
      return new NodeChannel.Served(vertx.getOrCreateContext(), (verb, argument) -> answer(vertx, verb, argument));
    });
  }

  private static Future<String> answer(Vertx vertx, String verb, String argument) {
    return switch (verb) {
      case "echo" -> Future.succeededFuture(argument);
      case "fail" -> Future.failedFuture(new IllegalArgumentException(argument));
      case "exit" -> {
        System.err.println("about to exit with status 3");
        System.exit(3);
        yield Future.<String>succeededFuture();
      }
      case "lock" -> vertx.sharedData().getLocalLock(argument).map("holding " + argument);
      case "grandchild" -> Future.succeededFuture(String.valueOf(startGrandchild().pid()));
      case "orphan" -> Future.succeededFuture(String.valueOf(startOrphanedNode().pid()));
      case "quit" -> {
        String leftovers = String.join(", ", io.looplab.grader.leaks.ShutdownCheck.leftoversOf(vertx));
        yield vertx.close().map(v -> leftovers.isEmpty() ? "clean" : leftovers);
      }
      default -> Future.failedFuture("unknown verb " + verb);
    };
  }

  /** A node of this node's own: when this node dies, that one must halt by itself. */
  private static ProcessHandle startOrphanedNode() {
    return ProcessHandle.of(NodeProcess.launch("node F", EchoNode.class, java.util.List.of()).pid()).orElseThrow();
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
