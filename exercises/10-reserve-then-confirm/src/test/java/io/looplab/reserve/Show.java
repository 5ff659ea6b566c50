package io.looplab.reserve;

import io.looplab.grader.races.Fresh;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.OnContext;
import io.looplab.payments.PaymentDeclinedException;
import io.looplab.reserve.ShowModel.Step;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.looplab.reserve.ShowModel.describe;
import static io.looplab.reserve.ShowModel.failureCode;
import static io.looplab.reserve.ShowModel.names;

/**
 * One show: a BoxOfficeVerticle with a fake payment service ({@link HeldPayments}), driven step by step. Each step
 * checks the verticle's answers and {@code free()} against a model of what must be true ({@link ShowModel}): the
 * seats held for customers who are paying, the seats sold, and the seats free.
 */
final class Show implements AutoCloseable {

  /**
   * How long the test waits for something a correct solution does in well under a millisecond: a booking reaching
   * the payment service or answering, a reply arriving. Only a broken solution ever waits it out.
   */
  static final long WAIT_MILLIS = 5_000;

  /** {@link #WAIT_MILLIS}, for the test kit's waits. */
  static final Duration WAIT = Duration.ofMillis(WAIT_MILLIS);

  /**
   * The one wait that proves something does not happen: how long a booking may take to reach the payment service
   * while other customers' payments are pending. A correct booking needs one event-bus hop and a few lines of code
   * to get there (well under 10 ms even on a busy machine), so a second is a wide margin. Only a booking that waits
   * for another customer's payment ever pays it, and a factory pays it once: its later orders are not run.
   */
  static final long NOT_STUCK_MILLIS = 1_000;

  private final Vertx vertx;
  private final boolean ownsVertx;
  private final HeldPayments payments = new HeldPayments();
  private final ShowModel model;
  private final String deploymentId;

  /** A show on a Vert.x instance of its own: no lock, consumer or callback of one order can touch the next. */
  static Show onItsOwnVertx(int seats) {
    Vertx vertx = Vertx.vertx();
    try {
      return new Show(vertx, true, seats);
    } catch (RuntimeException | Error e) {
      vertx.close();
      throw e;
    }
  }

  static Show on(Vertx vertx, int seats) {
    return new Show(vertx, false, seats);
  }

  private Show(Vertx vertx, boolean ownsVertx, int seats) {
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.model = new ShowModel(vertx, payments, seats);
    deploymentId = Await.result(vertx.deployVerticle(new BoxOfficeVerticle(seats, payments)), WAIT,
        "Deploying BoxOfficeVerticle did not finish within " + WAIT_MILLIS + " ms: start() must complete its "
            + "future once its consumers are registered.");
    model.checkFree(Step.OPENED, null);
  }

  /** {@code customer} books: with a seat free, they must be asked to pay; with none, refused at once. */
  void book(String customer) {
    boolean seatLeft = model.free > 0;
    List<String> othersPaying = List.copyOf(model.paying);
    model.story.add(customer + " books");
    Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, Fresh.copyOf(customer));
    model.replies.put(customer, reply);
    reply.onComplete(done -> payments.signal.fire());
    long limit = seatLeft && !othersPaying.isEmpty() ? NOT_STUCK_MILLIS : WAIT_MILLIS;
    payments.signal.await(() -> payments.chargeOf(customer).isPresent() || reply.isComplete(), limit);
    boolean charged = payments.chargeOf(customer).isPresent();

    if (seatLeft) {
      if (!charged && reply.isComplete()) {
        throw model.fail(customer + " should have been asked to pay for one of the " + model.free + " free seat(s), "
            + "but the booking answered at once, with no payment: " + describe(reply) + ".");
      }
      if (!charged && !othersPaying.isEmpty()) {
        throw model.stuck(customer, othersPaying);
      }
      if (!charged) {
        throw model.fail(customer + "'s booking neither asked for a payment nor answered within " + WAIT_MILLIS
            + " ms, with nobody else booking.");
      }
      model.free--;
      model.paying.add(customer);
      model.checkFree(Step.HELD, customer);
    } else {
      if (charged) {
        int now = model.readFree();
        throw model.fail(customer + " is being asked to pay, although every seat is taken (" + model.taken()
            + "). free() now answers " + now + (now < 0 ? ": the count went negative" : "") + ". If " + customer
            + " pays, one seat is sold twice. Check for a free seat and take it in the same synchronous step, before "
            + "the payment: if (free == 0) refuse at once; otherwise free--.");
      }
      if (!reply.isComplete()) {
        throw model.fail(customer + " should have been refused at once, since every seat is taken (" + model.taken()
            + "), but after " + WAIT_MILLIS + " ms " + customer + " had no answer and was not asked to pay.");
      }
      if (reply.succeeded()) {
        throw model.fail(customer + " was told \"" + reply.result().body() + "\", although every seat is taken ("
            + model.taken() + ") and " + customer + " paid nothing: one seat is sold twice.");
      }
      if (failureCode(reply) != BoxOfficeVerticle.SOLD_OUT) {
        throw model.fail(customer + " should have been refused with SOLD_OUT (" + BoxOfficeVerticle.SOLD_OUT + "), "
            + "since every seat is taken (" + model.taken() + "), but the booking failed with " + describe(reply)
            + ".");
      }
      model.story.set(model.story.size() - 1, customer + " books and is refused");
      model.checkFree(Step.REFUSED, customer);
    }
    model.checkNoEarlyAnswers();
  }

  /** Approves {@code customer}'s pending payment: they must be told their seat is booked, at once. */
  void approve(String customer) {
    model.story.add(customer + "'s payment is approved");
    charge(customer).open(null);
    Future<Message<String>> reply = model.replies.get(customer);
    payments.signal.await(reply::isComplete, WAIT_MILLIS);
    List<String> others = model.paying.stream().filter(c -> !c.equals(customer)).toList();
    if (!reply.isComplete()) {
      throw model.fail(customer + "'s payment was approved, but " + customer + " had no answer within " + WAIT_MILLIS
          + " ms" + (others.isEmpty() ? "." : ", while " + names(others) + "'s payment was still pending. Each "
          + "customer must be answered when their own payment completes, not when the others' do."));
    }
    if (reply.failed()) {
      throw model.fail(customer + "'s payment was approved, but the booking failed with " + describe(reply) + ".");
    }
    model.paying.remove(customer);
    model.sold.add(customer);
    model.checkFree(Step.APPROVED, customer);
    model.checkNoEarlyAnswers();
  }

  /** Declines {@code customer}'s pending payment: they must be told why, and their seat must be free again. */
  void decline(String customer, String reason) {
    model.story.add(customer + "'s payment is declined");
    charge(customer).fail(new PaymentDeclinedException(reason));
    Future<Message<String>> reply = model.replies.get(customer);
    payments.signal.await(reply::isComplete, WAIT_MILLIS);
    if (!reply.isComplete()) {
      throw model.fail(customer + "'s payment was declined (\"" + reason + "\"), but " + customer + " had no answer "
          + "within " + WAIT_MILLIS + " ms: the failure was lost. Let the payment's failure fail the booking.");
    }
    if (reply.succeeded()) {
      throw model.fail(customer + "'s payment was declined (\"" + reason + "\"), yet " + customer + " was told \""
          + reply.result().body() + "\": a seat given away unpaid.");
    }
    String message = String.valueOf(reply.cause().getMessage());
    if (failureCode(reply) != BoxOfficeVerticle.PAYMENT_DECLINED || !message.contains(reason)) {
      throw model.fail(customer + "'s payment was declined with \"" + reason + "\", so the booking should fail with "
          + "PAYMENT_DECLINED (" + BoxOfficeVerticle.PAYMENT_DECLINED + ") and that reason, but it failed with "
          + describe(reply) + ". Let the PaymentDeclinedException reach the reply as it is.");
    }
    model.paying.remove(customer);
    model.free++;
    model.checkFree(Step.DECLINED, customer);
    model.checkNoEarlyAnswers();
  }

  /** Books, and approves the payment if the model says {@code customer} got a seat. */
  void bookAndPay(String customer) {
    book(customer);
    if (model.paying.contains(customer)) {
      approve(customer);
    }
  }

  void approveEveryonePaying() {
    List.copyOf(model.paying).forEach(this::approve);
  }

  /** The customers paying right now, in the order they started paying. */
  List<String> payingNow() {
    return List.copyOf(model.paying);
  }

  /**
   * The {@code group} book at the same moment: their requests are queued on the box office's event loop in one
   * task, so that each booking's first step has run before any continuation of another. Exactly as many as there
   * are free seats must be asked to pay; the others must be refused at once.
   */
  void bookTogether(List<String> group) {
    int seatsLeft = model.free;
    model.story.add(names(group) + " book at the same moment");
    Context box = contextOfTheBoxOffice();
    OnContext.run(box, () -> {
      for (String customer : group) {
        Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS,
            Fresh.copyOf(customer));
        model.replies.put(customer, reply);
        reply.onComplete(done -> payments.signal.fire());
      }
    }, WAIT);
    // The first booking needs one event-bus hop; once one of them pays, the others get the margin of a booking
    // that must not wait for a pending payment.
    payments.signal.await(() -> group.stream().anyMatch(c -> payments.chargeOf(c).isPresent()
        || model.replies.get(c).isComplete()), WAIT_MILLIS);
    payments.signal.await(() -> group.stream().allMatch(c -> payments.chargeOf(c).isPresent()
        || model.replies.get(c).isComplete()), NOT_STUCK_MILLIS);
    List<String> charged = group.stream().filter(c -> payments.chargeOf(c).isPresent()).toList();
    List<String> refused = group.stream().filter(c -> !charged.contains(c)).toList();
    int shouldPay = Math.min(seatsLeft, group.size());
    if (charged.size() > shouldPay) {
      int now = model.readFree();
      throw model.fail(names(group) + " booked at the same moment, with " + seatsLeft + " seat(s) free, and "
          + (charged.size() == group.size() ? "all " + charged.size() : charged.size() + " of them ("
          + names(charged) + ")") + " were asked to pay: a seat is being sold twice. free() now answers " + now
          + ". Each booking decided \"a seat is free\" from a count the others had not yet taken from: between "
          + "its check and its take there was an await (a lock that was not free at once, a message, a callback), "
          + "and the other bookings ran in that gap. Check for a free seat and take it in one synchronous step, "
          + "with no await between them" + payments.inCode() + ".");
    }
    List<String> silent = refused.stream().filter(c -> !model.replies.get(c).isComplete()).toList();
    if (!silent.isEmpty() && !charged.isEmpty() && charged.size() < shouldPay) {
      model.paying.addAll(charged);
      model.free -= charged.size();
      throw model.stuck(silent.get(0), charged);
    }
    for (String customer : refused) {
      Future<Message<String>> reply = model.replies.get(customer);
      if (!reply.isComplete()) {
        throw model.fail(customer + " was neither asked to pay nor answered, while " + (charged.isEmpty()
            ? "nobody was asked to pay either" : names(charged) + (charged.size() == 1 ? " was" : " were")
            + " asked to pay") + ".");
      }
      if (charged.size() < shouldPay) {
        throw model.fail(customer + " was answered " + describe(reply) + " without being asked to pay, although "
            + seatsLeft + " seat(s) were free for " + group.size() + " customers and only " + charged.size()
            + " of them (" + names(charged) + ") are paying: a seat that is free must be sold.");
      }
      if (reply.succeeded() || failureCode(reply) != BoxOfficeVerticle.SOLD_OUT) {
        throw model.fail(customer + " should have been refused with SOLD_OUT (" + BoxOfficeVerticle.SOLD_OUT + "), "
            + "since the other " + charged.size() + " took the " + seatsLeft + " free seat(s), but the booking "
            + "answered " + describe(reply) + ".");
      }
    }
    model.free -= charged.size();
    model.paying.addAll(charged);
    model.story.set(model.story.size() - 1, names(group) + " book at the same moment; " + (charged.isEmpty() ? "nobody"
        : names(charged)) + " pay" + (charged.size() == 1 ? "s" : "") + (refused.isEmpty() ? ""
        : "; " + names(refused) + (refused.size() == 1 ? " is" : " are") + " refused"));
    model.checkFree(Step.HELD, names(charged));
    model.checkNoEarlyAnswers();
  }

  /** Fails {@code customer}'s pending payment with {@code error}, which is not a decline: their seat must come back. */
  void failPayment(String customer, Throwable error) {
    model.story.add(customer + "'s payment fails: " + error.getMessage());
    charge(customer).fail(error);
    Future<Message<String>> reply = model.replies.get(customer);
    payments.signal.await(reply::isComplete, WAIT_MILLIS);
    if (!reply.isComplete()) {
      throw model.fail(customer + "'s payment failed (" + error + "), but " + customer + " had no answer within "
          + WAIT_MILLIS + " ms: the failure was lost. Let every failure of the payment fail the booking.");
    }
    if (reply.succeeded()) {
      throw model.fail(customer + "'s payment failed (" + error + "), yet " + customer + " was told \""
          + reply.result().body() + "\": a seat given away unpaid.");
    }
    model.paying.remove(customer);
    model.free++;
    model.checkFree(Step.FAILED, customer);
    model.checkNoEarlyAnswers();
  }

  /**
   * {@code customer} books, and the payment client throws {@code error} when it is called, instead of returning a
   * future: the booking must fail, and the seat it took must be free again.
   */
  void bookWhoseChargeThrows(String customer, String message) {
    payments.throwFor(customer, message);
    IllegalStateException error = new IllegalStateException(message);
    model.story.add(customer + " books, and the call to charge throws " + error.getClass().getSimpleName() + ": "
        + error.getMessage());
    Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, Fresh.copyOf(customer));
    model.replies.put(customer, reply);
    reply.onComplete(done -> payments.signal.fire());
    // A correct booking answers within microseconds of the throw; a second is a wide margin on a busy machine.
    payments.signal.await(reply::isComplete, NOT_STUCK_MILLIS);
    boolean called = payments.threw(customer);
    if (!reply.isComplete()) {
      throw model.fail(customer + "'s booking had no answer " + NOT_STUCK_MILLIS + " ms after " + (called
          ? "the call to charge threw " + error + " instead of failing its future" + payments.thrownFrom(customer)
          + ". The exception escaped book(), so the reply was never sent and the seat it took stays taken. A "
          + "client may throw instead of failing its future: make the call inside compose or Future.future (they "
          + "turn an exception into a failed future), or catch it, and treat it as a failed payment: give the seat "
          + "back and fail the booking."
          : "booking; it never called charge."));
    }
    if (reply.succeeded()) {
      throw model.fail(customer + "'s call to charge threw " + error + ", yet " + customer + " was told \""
          + reply.result().body() + "\": a seat given away unpaid.");
    }
    if (called) {
      model.checkFree(Step.FAILED, customer);
    } else {
      model.checkFree(Step.REFUSED, customer);
    }
    model.checkNoEarlyAnswers();
  }

  /** The context the box office was deployed on, where its consumers receive their messages. */
  private Context contextOfTheBoxOffice() {
    Set<Context> contexts = ((VertxInternal) vertx).deploymentManager().deployment(deploymentId).deployment()
        .contexts();
    return contexts.iterator().next();
  }

  private Gate<Void> charge(String customer) {
    return payments.chargeOf(customer).orElseThrow(() -> new IllegalStateException("no charge for " + customer));
  }

  @Override
  public void close() {
    try {
      if (ownsVertx) {
        // Closing the instance drops every pending payment, lock and reply of this order with it.
        Await.outcome(vertx.close(), WAIT, "Vert.x did not close");
      } else {
        for (Gate<Void> gate : payments.gates()) {
          if (gate.isPending()) {
            gate.open(null);
          }
        }
        Await.outcome(vertx.undeploy(deploymentId), WAIT, "The box office did not undeploy");
      }
    } catch (AssertionError late) {
      // Best effort: the test has its verdict already, and vertx-junit5 closes the shared instance anyway.
    }
  }
}
