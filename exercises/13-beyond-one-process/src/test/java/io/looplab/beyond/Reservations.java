package io.looplab.beyond;

import io.looplab.grader.Outcome;
import io.looplab.grader.nodes.NodeProcess;
import io.looplab.grader.testkit.Await;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.looplab.beyond.Limits.WAIT;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Every reservation the test asked a node for, with who asked on which node, and the answers in the order the test
 * saw them: the evidence the messages give when a reservation does not move.
 */
final class Reservations {

  private final Map<CompletableFuture<String>, String> reservations = new ConcurrentHashMap<>();
  private final Map<CompletableFuture<String>, String> answered = new ConcurrentHashMap<>();
  private final List<NodeProcess> nodesAsked = new CopyOnWriteArrayList<>();

  /** The reservations answered so far, in the order the test saw their answers: evidence for messages. */
  private record Answered(CompletableFuture<String> answer, String label, Outcome<Boolean> outcome) {
  }

  private final List<Answered> answeredInOrder = new CopyOnWriteArrayList<>();

  /** Tells {@code node} to reserve a seat of {@code show} for {@code who}; the answer comes later. */
  CompletableFuture<String> reserve(NodeProcess node, String show, String who) {
    CompletableFuture<String> answer = node.ask("reserve " + show + " " + who);
    reservations.put(answer, who + "'s reservation of " + show + " on " + node.name());
    if (!nodesAsked.contains(node)) {
      nodesAsked.add(node);
    }
    return answer;
  }

  /**
   * What the test can tell about a reservation that does not move: the one answered before it, and the local locks
   * each node holds now. A cluster lock cannot be listed from here, so a refusal just before is named as a lead.
   */
  String whatCameBefore() {
    StringBuilder text = new StringBuilder();
    int failedSince = 0;
    Answered lastAnswer = null;
    for (int i = answeredInOrder.size() - 1; i >= 0; i--) {
      Answered a = answeredInOrder.get(i);
      if (!a.outcome().isFailure()) {
        lastAnswer = a;
        break;
      }
      failedSince++;
    }
    if (lastAnswer != null) {
      boolean refusal = Outcome.of(false).equals(lastAnswer.outcome());
      text.append(" The last reservation that got an answer other than a failure was ").append(lastAnswer.label())
          .append(", answered ").append(lastAnswer.outcome()).append(refusal ? " (a refusal: if the lock it took "
          + "was not released on that way out, every later reservation that needs that lock waits for it)" : "")
          .append(failedSince > 0 ? "; " + failedSince + " reservation(s) failed after it" : "").append(".");
    }
    for (NodeProcess node : nodesAsked) {
      try {
        String held = node.ask("locks").get(2, TimeUnit.SECONDS);
        if (!held.equals("none")) {
          text.append(" ").append(node.name()).append(" holds the local lock(s) ").append(held).append(".");
        }
      } catch (Exception e) {
        // Only evidence for a message: a node that cannot say is left out.
      }
    }
    return text.toString();
  }

  /** Waits for a node's answer to a reserve command: true, false, or the failure the node reported. */
  Outcome<Boolean> answerOf(CompletableFuture<String> answer) {
    String label = reservations.getOrDefault(answer, answered.getOrDefault(answer, "a reservation"));
    AsyncResult<String> result;
    try {
      result = Await.outcome(Future.fromCompletionStage(answer), WAIT, "");
    } catch (AssertionFailedError late) {
      if (answer.isDone()) {
        throw late;
      }
      // The evidence is gathered only now: asking the nodes for it takes time, and a reservation that answers
      // needs none.
      throw new AssertionFailedError(capitalised(label) + " did not answer within " + WAIT.toSeconds() + " s."
          + whatCameBefore() + " The usual causes: a lock that is never released on some way out (a refusal, a "
          + "failure), or a future that is never completed.");
    }
    if (result.failed()) {
      if (result.cause() instanceof NodeProcess.NodeError error) {
        Outcome<Boolean> outcome = Outcome.failed(error);
        noteAnswered(answer, label, outcome);
        return outcome;
      }
      throw result.cause() instanceof AssertionFailedError a ? a : new AssertionFailedError(result.cause().toString());
    }
    Outcome<Boolean> outcome = Outcome.of(Boolean.parseBoolean(result.result()));
    noteAnswered(answer, label, outcome);
    return outcome;
  }

  /** Notes the first time the test sees a reservation's answer: the last one noted is the latest to answer. */
  private void noteAnswered(CompletableFuture<String> answer, String label, Outcome<Boolean> outcome) {
    if (reservations.remove(answer) != null) {
      answeredInOrder.add(new Answered(answer, label, outcome));
      answered.put(answer, label);
    }
  }

  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  /** Has {@code who} reserve a seat of {@code show} on {@code node}, and checks the answer. */
  void expect(NodeProcess node, String show, String who, Outcome<Boolean> expected, String why) {
    Outcome<Boolean> got = answerOf(reserve(node, show, who));
    require(expected.equals(got), who + "'s reservation on " + node.name() + " should answer " + expected + " ("
        + why + "), but it answered " + got + ".");
  }
}
