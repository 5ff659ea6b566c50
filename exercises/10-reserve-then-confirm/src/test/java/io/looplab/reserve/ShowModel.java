package io.looplab.reserve;

import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.looplab.reserve.Show.NOT_STUCK_MILLIS;
import static io.looplab.reserve.Show.WAIT;
import static io.looplab.reserve.Show.WAIT_MILLIS;

/**
 * What must be true of a {@link Show} after every step: the seats held for customers who are paying, the seats
 * sold, the seats free, and the replies each customer has had. It compares {@code free()} and the replies with that
 * model, and explains a difference in the step's own terms, with the story so far and where the learner's code
 * called charge.
 */
final class ShowModel {

  /** The steps of a show, and the model they are checked against. */
  enum Step { OPENED, HELD, REFUSED, APPROVED, DECLINED, FAILED }

  private final Vertx vertx;
  private final HeldPayments payments;
  final int seats;
  final Set<String> paying = new LinkedHashSet<>();
  final Set<String> sold = new LinkedHashSet<>();
  final Map<String, Future<Message<String>>> replies = new ConcurrentHashMap<>();
  final List<String> story = new ArrayList<>();
  int free;

  ShowModel(Vertx vertx, HeldPayments payments, int seats) {
    this.vertx = vertx;
    this.payments = payments;
    this.seats = seats;
    this.free = seats;
    story.add("a show with " + seats + " seats opens");
  }

  /**
   * {@code customer}'s booking waits for the payment of {@code othersPaying}: says what holds it, from the evidence
   * (a local lock still held, or none), and what a short critical section looks like.
   */
  BookingStuck stuck(String customer, List<String> othersPaying) {
    List<String> held = LockCensus.heldLocalLocks(vertx);
    return new BookingStuck(customer + "'s booking did not reach the payment service within " + NOT_STUCK_MILLIS
        + " ms, while " + names(othersPaying) + "'s payment was still pending, with " + free + " of " + seats
        + " seats free. It is waiting for that payment to finish. " + (held.isEmpty()
        ? "No local lock is held, so something else makes each booking wait for the one before it: the usual "
          + "causes are a queue or a chain of futures that starts a booking only once the previous one has "
          + "completed, or a \"busy\" flag that stays set while a customer pays."
        : capitalised(String.join(", ", held)) + " is held: a lock held across the slow payment (withLocalLock "
          + "around the payment, or a Lock released only when charge completes).")
        + " A payment takes seconds, so every customer queues behind the slowest payment in front of them. "
        + "Keep the critical section short: check for a seat and take it, release the lock if you use one (on "
        + "one event loop, code with no await in it cannot be interleaved anyway), and only then call charge"
        + payments.inCode() + ". " + story());
  }

  /** Compares {@code free()} with the model after {@code step}, and explains a difference in the step's terms. */
  void checkFree(Step step, String customer) {
    int actual = readFree();
    if (actual == free) {
      return;
    }
    String count = "free() answered " + actual + " where " + free + " is right (" + seats + " seats: "
        + taken() + ")";
    if (actual < 0) {
      throw fail(count + ": the count went negative, so the box office has promised " + (-actual) + " seat(s) "
          + "that do not exist, and sold some seat twice. Check for a free seat and take it in one synchronous "
          + "step: if none is free, refuse; otherwise free--.");
    }
    String more = actual > free ? "more" : "fewer";
    switch (step) {
      case OPENED -> throw fail("Before anyone booked, free() answered " + actual + ", but the show has " + seats
          + " seats. Start with every seat free.");
      case HELD -> throw fail(actual > free
          ? "While " + names(paying) + (paying.size() == 1 ? " is" : " are") + " paying, " + count + ": "
              + customer + "'s seat is not held while " + customer + " pays. The next customer sees it as free, "
              + "pays for it too, and one seat is sold twice. Take the seat (free--) in the same synchronous step "
              + "as the check, before you ask for the payment."
          : "After " + customer + " booked, " + count + ": the booking took more than one seat.");
      case REFUSED -> throw fail(actual > free
          ? "After " + customer + " was refused (sold out), " + count + ": refusing " + customer + " gave back a "
              + "seat " + customer + " never had, and the next customer can buy a seat that is already taken. "
              + "Only a booking that took a seat may give one back: roll back on a declined payment, not on every "
              + "failure."
          : "After " + customer + " was refused (sold out), " + count + ": a refusal must not take a seat.");
      case APPROVED -> throw fail("After " + customer + "'s payment was approved, " + count + ". An approved "
          + "payment changes nothing in the count: the seat was already taken when " + customer + " booked.");
      case FAILED -> throw fail(actual > free
          ? "After " + customer + "'s payment failed, " + count + ": the failure gave back more than the one seat "
              + customer + " held. Give it back exactly once."
          : "After " + customer + "'s payment failed, " + count + ": " + customer + "'s seat was not given back. "
              + "A payment can fail in more ways than a decline (a timeout, a client error, a call that throws): "
              + "undo the reservation on every failure of the payment, whatever the exception, with free++ in one "
              + "place.");
      case DECLINED -> throw fail(actual > free
          ? "After " + customer + "'s payment was declined, " + count + ": the decline gave back more than the "
              + "one seat " + customer + " held, so seats that are held or sold look free, and will be sold "
              + "twice. Give it back exactly once, with free++ in one place, and never by restoring a value saved "
              + "before the payment: other customers have taken seats since."
          : "After " + customer + "'s payment was declined, " + count + ": " + customer + "'s seat was not given "
              + "back. It is lost for good: nobody can buy it, and the show sells " + more + " seats than it has. "
              + "When the payment fails, undo the reservation: free++.");
      default -> throw fail(count + ".");
    }
  }

  /** A customer whose payment is still pending must not have an answer yet. */
  void checkNoEarlyAnswers() {
    for (String customer : paying) {
      Future<Message<String>> reply = replies.get(customer);
      if (reply.isComplete()) {
        throw fail(customer + " got an answer (" + describe(reply) + ") while " + customer + "'s payment was "
            + "still pending. Answer each booking when its own payment completes: a confirmation when it is "
            + "approved, PAYMENT_DECLINED when it is declined.");
      }
    }
  }

  int readFree() {
    Message<Object> answer = Await.result(vertx.eventBus().request(BoxOfficeVerticle.FREE_ADDRESS, null), WAIT,
        "A request to " + BoxOfficeVerticle.FREE_ADDRESS + " had no answer within " + WAIT_MILLIS + " ms. "
            + story());
    if (!(answer.body() instanceof Number n)) {
      throw fail(BoxOfficeVerticle.FREE_ADDRESS + " should answer free() as a number, but answered "
          + answer.body() + ".");
    }
    return n.intValue();
  }

  /** What is taken, in words: "2 held for ada and bob, who are paying; 1 sold to cyd". */
  String taken() {
    List<String> parts = new ArrayList<>();
    if (!paying.isEmpty()) {
      parts.add(paying.size() + " held for " + names(paying) + (paying.size() == 1 ? ", who is" : ", who are")
          + " paying");
    }
    if (!sold.isEmpty()) {
      parts.add(sold.size() + " sold to " + names(sold));
    }
    return parts.isEmpty() ? "none taken" : String.join("; ", parts);
  }

  String story() {
    return "What happened, in order: " + String.join("; ", story) + ".";
  }

  AssertionFailedError fail(String what) {
    String sites = payments.inCode();
    String where = sites.isEmpty() || what.contains("your code called charge") ? ""
        : " Y" + sites.substring(3, sites.length() - 1) + ".";
    return new AssertionFailedError(what + where + " " + story());
  }


  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  static String names(Collection<String> customers) {
    List<String> list = List.copyOf(customers);
    if (list.size() <= 1) {
      return String.join("", list);
    }
    return String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
  }

  static int failureCode(Future<?> reply) {
    return reply.cause() instanceof ReplyException e ? e.failureCode() : -1;
  }

  /** A reply, as a learner reads it: "a confirmation", or "failure 409: sold out: ...". */
  static String describe(Future<Message<String>> reply) {
    if (reply.succeeded()) {
      return "the confirmation \"" + reply.result().body() + "\"";
    }
    return reply.cause() instanceof ReplyException e
        ? "failure " + e.failureCode() + ": " + e.getMessage()
        : "the error " + reply.cause();
  }
}
