package io.looplab.grader.nodes;

import io.vertx.core.Context;
import io.vertx.core.Future;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * The node's side of {@link NodeProcess}: commands arrive on standard input as {@code <id> <verb> <argument>}, and
 * each answer goes back on the real standard output as {@code <id> ok <text>} or {@code <id> fail <text>}.
 *
 * <p>{@code System.out} is pointed at standard error once the channel opens, so whatever the code under test prints
 * can never be mistaken for an answer. When standard input ends, the test JVM is gone, and the node halts at once:
 * a node never outlives its test.
 */
public final class NodeChannel {

  static final String OK = "ok";
  static final String FAIL = "fail";

  /** What a node does with one command; {@code quit} is a verb too, and the node exits once it has answered it. */
  @FunctionalInterface
  public interface Verbs {
    Future<String> handle(String verb, String argument);
  }

  private final PrintStream answers;

  private NodeChannel() {
    answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    // The end of standard input tells a serving node that its test is gone; this tells a node still starting up.
    ProcessHandle.current().parent().ifPresent(test -> test.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
  }

  /** How a node serves, once it has started: on which context, with which verbs. */
  public record Served(Context context, Verbs verbs) {
  }

  /**
   * A node's whole main: opens the channel, runs {@code startUp}, then serves until told to quit. A start-up that
   * throws ends the process (status 1, the error on standard error for the test to quote), instead of leaving a
   * JVM that Hazelcast's or Vert.x's threads keep alive with nobody to serve.
   */
  public static void run(Callable<Served> startUp) {
    NodeChannel channel = new NodeChannel();
    Served served;
    try {
      served = startUp.call();
    } catch (Throwable e) {
      System.err.println("the node could not start: " + describe(e));
      e.printStackTrace();
      Runtime.getRuntime().halt(1);
      return;
    }
    channel.serve(served.context(), served.verbs());
  }

  /**
   * Tells the test the node is ready, then handles commands on {@code context} (one at a time per command, but
   * without waiting for earlier answers) until {@code quit} has been answered or the test goes away. Never returns.
   */
  private void serve(Context context, Verbs verbs) {
    say("0", OK, "ready");
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] parts = line.split(" ", 3);
        String id = parts[0];
        String verb = parts.length > 1 ? parts[1] : "";
        String argument = parts.length > 2 ? parts[2] : "";
        context.runOnContext(v -> dispatch(verbs, id, verb, argument));
      }
    } catch (IOException e) {
      // the test JVM is gone
    }
    Runtime.getRuntime().halt(0);
  }

  private void dispatch(Verbs verbs, String id, String verb, String argument) {
    Future<String> answer;
    try {
      answer = verbs.handle(verb, argument);
    } catch (RuntimeException e) {
      answer = Future.failedFuture(e);
    }
    answer.onComplete(done -> {
      if (done.succeeded()) {
        say(id, OK, String.valueOf(done.result()));
      } else {
        say(id, FAIL, describe(done.cause()));
      }
      if (verb.equals("quit")) {
        System.exit(0);
      }
    });
  }

  /** An error as one line: its type when that says something, its message, and where the code under test threw. */
  static String describe(Throwable error) {
    String message = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
    if (error instanceof RuntimeException && !(error instanceof IllegalStateException)
        && !error.getClass().getName().startsWith("io.vertx")) {
      message = error.getClass().getSimpleName() + ": " + message;
    }
    for (StackTraceElement frame : error.getStackTrace()) {
      if (!frame.getClassName().matches("(java|jdk|sun|io\\.vertx|io\\.netty|io\\.looplab\\.grader)\\..*")) {
        return message + " (at " + frame.getFileName() + ":" + frame.getLineNumber() + ")";
      }
    }
    return message;
  }

  private synchronized void say(String id, String status, String text) {
    answers.println(id + " " + status + " " + text.replace('\n', ' ').replace('\r', ' '));
  }
}
