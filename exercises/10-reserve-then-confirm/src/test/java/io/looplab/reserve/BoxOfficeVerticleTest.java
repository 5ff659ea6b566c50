package io.looplab.reserve;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.leaks.LockCensus;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.sync.EveryOrder;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.Signal;
import io.looplab.payments.PaymentDeclinedException;
import io.looplab.payments.PaymentService;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.internal.VertxInternal;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Grades BoxOfficeVerticle by what its customers see: who is asked to pay, who is answered what and when, and how
 * many seats {@code free()} reports after every step. The payment service is a fake whose every charge stays
 * pending until this test approves or declines it, so "bob books while ada is still paying" is a situation the test
 * creates on purpose, and every order in which the payments can complete is tried. Bookings that arrive together are
 * queued on the box office's event loop in one go, so that each has read the count before any other continues. Every
 * name is decoded afresh for each request, as a real request's would be. After each step the answers are compared
 * with a model of the show: seats held for customers who are paying, seats sold, seats free.
 */
@GradedVertxTest
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("10 Reserve, then confirm: hold the seat at once, pay outside the critical section, roll back exactly once")
class BoxOfficeVerticleTest {

  /**
   * How long the test waits for something a correct solution does in well under a millisecond: a booking reaching
   * the payment service or answering, a reply arriving. Only a broken solution ever waits it out.
   */
  private static final long WAIT_MILLIS = 5_000;

  /**
   * The one wait that proves something does not happen: how long a booking may take to reach the payment service
   * while other customers' payments are pending. A correct booking needs one event-bus hop and a few lines of code
   * to get there (well under 10 ms even on a busy machine), so a second is a wide margin. Only a booking that waits
   * for another customer's payment ever pays it, and a factory pays it once: its later orders are not run.
   */
  private static final long NOT_STUCK_MILLIS = 1_000;

  /** How a payment fails when it is neither approved nor declined: the bank never answered. */
  private static final String BANK_TIMEOUT = "the bank did not answer within 30 s";

  /** What the payment client throws, when a test makes its call throw instead of failing its future. */
  private static final String CLIENT_CLOSED = "the payment client is closed";

  /** Set when an order of the running test factory found a booking stuck behind a pending payment. */
  private String stuck;

  /**
   * Runs the paths this exercise uses once, with a verticle of the test's own: the first event-bus request, failed
   * reply and local lock in a JVM load and interpret enough classes to look like a stall of the learner's code.
   */
  @BeforeAll
  static void warmUpTheJvm() {
    Vertx vertx = Vertx.vertx();
    try {
      await(vertx.deployVerticle(new WarmUpVerticle()), WAIT_MILLIS, "The warm-up verticle did not deploy.");
      await(vertx.eventBus().request("looplab.warm-up", "ok"), WAIT_MILLIS, "The warm-up request got no answer.");
      try {
        vertx.eventBus().request("looplab.warm-up", "fail").toCompletionStage().toCompletableFuture()
            .get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
      } catch (Exception expected) {
        // the failed reply is the point
      }
      // The fake payment service records where each charge was called from: walk a stack once before the tests do.
      io.looplab.grader.sync.CallSite.ofCurrentCall();
      LockCensus.heldLocalLocks(vertx);
    } finally {
      await(vertx.close(), WAIT_MILLIS, "The warm-up Vert.x instance did not close.");
    }
  }

  /** The test's own verticle for {@link #warmUpTheJvm()}: a consumer that takes a local lock and replies. */
  static final class WarmUpVerticle extends VerticleBase {
    @Override
    public Future<?> start() {
      return vertx.eventBus().<String>consumer("looplab.warm-up", msg -> vertx.sharedData()
              .withLocalLock("looplab.warm-up", () -> Future.succeededFuture(msg.body()).map(String::length))
              .onSuccess(n -> {
                if ("fail".equals(msg.body())) {
                  msg.fail(409, "warm-up");
                } else {
                  msg.reply(n);
                }
              }))
          .completion();
    }
  }

  @Test
  @Order(1)
  @Points(3)
  @DisplayName("a booking holds its seat while the customer pays, and the seat stays taken once the payment is approved")
  void seatIsHeldWhileTheCustomerPays(Vertx vertx) {
    try (Show show = Show.on(vertx, 2)) {
      show.book("ada");
      show.approve("ada");
    }
  }

  @TestFactory
  @Order(2)
  @Points(7)
  @DisplayName("while a payment is pending, the next customers book and reach their own payment; each is answered as "
      + "soon as their own payment is approved, in every order")
  Stream<DynamicTest> nextBookingDoesNotWaitForAPendingPayment() {
    List<String> customers = List.of("ada", "bob", "cyd");
    return everyOrder(customers, order -> "3 seats; ada, bob and cyd book; approved: " + String.join(", then ", order),
        order -> {
          try (Show show = Show.onItsOwnVertx(3)) {
            customers.forEach(show::book);
            order.forEach(show::approve);
          }
        });
  }

  @TestFactory
  @Order(3)
  @Points(6)
  @DisplayName("a declined payment gives its seat back exactly once, and the seat can be sold again, in every order")
  Stream<DynamicTest> declinedPaymentGivesTheSeatBackExactlyOnce() {
    List<String> customers = List.of("ada", "bob", "cyd");
    return everyOrder(customers, order -> "3 seats; ada, bob and cyd book; " + order.get(0) + " approved, then "
        + order.get(1) + " declined, then " + order.get(2) + " approved; dan takes the seat given back; eve is refused",
        order -> {
          try (Show show = Show.onItsOwnVertx(3)) {
            customers.forEach(show::book);
            show.approve(order.get(0));
            show.decline(order.get(1), "card declined");
            show.approve(order.get(2));
            show.bookAndPay("dan");
            show.book("eve");
          }
        });
  }

  @TestFactory
  @Order(4)
  @Points(6)
  @DisplayName("no seat is ever sold twice and free() never goes below zero, whatever the order of payments and "
      + "bookings")
  Stream<DynamicTest> noSeatIsSoldTwiceAndTheCountNeverGoesNegative() {
    Map<String, Consumer<Show>> steps = Map.of(
        "ada's payment is approved", show -> show.approve("ada"),
        "bob's payment is declined", show -> show.decline("bob", "insufficient funds"),
        "cyd books", show -> show.book("cyd"));
    List<String> events = List.of("ada's payment is approved", "bob's payment is declined", "cyd books");
    return everyOrder(events, order -> "2 seats; ada and bob book; " + String.join(", then ", order)
            + "; then dan and eve book until sold out",
        order -> {
          try (Show show = Show.onItsOwnVertx(2)) {
            show.book("ada");
            show.book("bob");
            order.forEach(event -> steps.get(event).accept(show));
            show.approveEveryonePaying();
            show.bookAndPay("dan");
            show.book("eve");
          }
        });
  }

  @TestFactory
  @Order(5)
  @Points(5)
  @DisplayName("bookings that arrive together take one seat each: with 2 seats and 3 customers at once, two pay and one "
      + "is refused, in every order of arrival")
  Stream<DynamicTest> bookingsThatArriveTogetherTakeOneSeatEach() {
    List<String> customers = List.of("ada", "bob", "cyd");
    return everyOrder(customers, order -> "2 seats; " + String.join(", ", order) + " book at the same moment; the "
            + "first one paying is declined; dan and eve book at the same moment",
        order -> {
          try (Show show = Show.onItsOwnVertx(2)) {
            show.bookTogether(order);
            show.decline(show.payingNow().get(0), "card declined");
            show.bookTogether(List.of("dan", "eve"));
            show.approveEveryonePaying();
          }
        });
  }

  @Test
  @Order(6)
  @Points(4)
  @DisplayName("a payment that fails for another reason than a decline, or whose call throws instead of failing its "
      + "future, gives the seat back and fails the booking")
  void everyFailedPaymentGivesTheSeatBack() {
    try (Show show = Show.onItsOwnVertx(2)) {
      show.book("ada");
      show.failPayment("ada", new java.util.concurrent.TimeoutException(BANK_TIMEOUT));
      show.bookWhoseChargeThrows("bob", CLIENT_CLOSED);
      show.bookAndPay("cyd");
      show.bookAndPay("dan");
      show.book("eve");
    }
  }

  @Test
  @Order(7)
  @Points(3)
  @DisplayName("undeploying the box office leaves nothing running")
  void undeployLeavesNothingRunning(Vertx vertx) {
    HeldPayments payments = new HeldPayments();
    String id = await(vertx.deployVerticle(new BoxOfficeVerticle(2, payments)), WAIT_MILLIS,
        "Deploying BoxOfficeVerticle did not finish within " + WAIT_MILLIS + " ms: start() must complete its future "
            + "once its consumers are registered.");
    // One approved and one declined booking first, so that whatever the verticle creates on those paths exists.
    Future<Message<String>> ada = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, fresh("ada"));
    payments.awaitCharge("ada").open(null);
    awaitAnswer(ada);
    Future<Message<String>> bob = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, fresh("bob"));
    payments.awaitCharge("bob").fail(new PaymentDeclinedException("card declined"));
    awaitAnswer(bob);

    ShutdownCheck.assertCleanUndeploy(vertx, id);
  }

  // ----------------------------------------------------------------------------------------------------------------

  /**
   * One dynamic test per order of {@code items}, from {@link EveryOrder#permutations}. Once an order finds a booking
   * stuck behind a pending payment, the later orders are not run: each would wait out the same second to learn the
   * same thing, and the factory has lost its points already.
   */
  private <T> Stream<DynamicTest> everyOrder(List<T> items, Function<List<T>, String> name,
                                             Consumer<List<T>> scenario) {
    return EveryOrder.permutations(items.size()).stream().map(permutation -> {
      List<T> order = Arrays.stream(permutation).mapToObj(items::get).toList();
      return DynamicTest.dynamicTest(name.apply(order), () -> {
        Assumptions.assumeTrue(stuck == null, () -> "Not run: an earlier order already found this: " + stuck);
        try {
          scenario.accept(order);
        } catch (BookingStuck e) {
          stuck = e.getMessage();
          throw e;
        }
      });
    });
  }

  /** A booking that never reached the payment service while another customer's payment was pending. */
  static final class BookingStuck extends AssertionFailedError {
    BookingStuck(String message) {
      super(message);
    }
  }

  /** The steps of a show, and the model they are checked against. */
  private enum Step { OPENED, HELD, REFUSED, APPROVED, DECLINED, FAILED }

  /**
   * One show: a BoxOfficeVerticle with a fake payment service, driven step by step. Each step checks the verticle's
   * answers and {@code free()} against a model of what must be true: the seats held for customers who are paying,
   * the seats sold, and the seats free.
   */
  static final class Show implements AutoCloseable {

    private final Vertx vertx;
    private final boolean ownsVertx;
    private final int seats;
    private final HeldPayments payments = new HeldPayments();
    private final String deploymentId;
    private final Set<String> paying = new LinkedHashSet<>();
    private final Set<String> sold = new LinkedHashSet<>();
    private final Map<String, Future<Message<String>>> replies = new ConcurrentHashMap<>();
    private final List<String> story = new ArrayList<>();
    private int free;

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
      this.seats = seats;
      this.free = seats;
      story.add("a show with " + seats + " seats opens");
      deploymentId = await(vertx.deployVerticle(new BoxOfficeVerticle(seats, payments)), WAIT_MILLIS,
          "Deploying BoxOfficeVerticle did not finish within " + WAIT_MILLIS + " ms: start() must complete its "
              + "future once its consumers are registered.");
      checkFree(Step.OPENED, null);
    }

    /** {@code customer} books: with a seat free, they must be asked to pay; with none, refused at once. */
    void book(String customer) {
      boolean seatLeft = free > 0;
      List<String> othersPaying = List.copyOf(paying);
      story.add(customer + " books");
      Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, fresh(customer));
      replies.put(customer, reply);
      reply.onComplete(done -> payments.signal.fire());
      long limit = seatLeft && !othersPaying.isEmpty() ? NOT_STUCK_MILLIS : WAIT_MILLIS;
      payments.signal.await(() -> payments.chargeOf(customer).isPresent() || reply.isComplete(), limit);
      boolean charged = payments.chargeOf(customer).isPresent();

      if (seatLeft) {
        if (!charged && reply.isComplete()) {
          throw fail(customer + " should have been asked to pay for one of the " + free + " free seat(s), but the "
              + "booking answered at once, with no payment: " + describe(reply) + ".");
        }
        if (!charged && !othersPaying.isEmpty()) {
          throw stuck(customer, othersPaying);
        }
        if (!charged) {
          throw fail(customer + "'s booking neither asked for a payment nor answered within " + WAIT_MILLIS
              + " ms, with nobody else booking.");
        }
        free--;
        paying.add(customer);
        checkFree(Step.HELD, customer);
      } else {
        if (charged) {
          int now = readFree();
          throw fail(customer + " is being asked to pay, although every seat is taken (" + taken() + "). free() now "
              + "answers " + now + (now < 0 ? ": the count went negative" : "") + ". If " + customer + " pays, "
              + "one seat is sold twice. Check for a free seat and take it in the same synchronous step, before "
              + "the payment: if (free == 0) refuse at once; otherwise free--.");
        }
        if (!reply.isComplete()) {
          throw fail(customer + " should have been refused at once, since every seat is taken (" + taken()
              + "), but after " + WAIT_MILLIS + " ms " + customer + " had no answer and was not asked to pay.");
        }
        if (reply.succeeded()) {
          throw fail(customer + " was told \"" + reply.result().body() + "\", although every seat is taken ("
              + taken() + ") and " + customer + " paid nothing: one seat is sold twice.");
        }
        if (failureCode(reply) != BoxOfficeVerticle.SOLD_OUT) {
          throw fail(customer + " should have been refused with SOLD_OUT (" + BoxOfficeVerticle.SOLD_OUT + "), "
              + "since every seat is taken (" + taken() + "), but the booking failed with " + describe(reply) + ".");
        }
        story.set(story.size() - 1, customer + " books and is refused");
        checkFree(Step.REFUSED, customer);
      }
      checkNoEarlyAnswers();
    }

    /**
     * {@code customer}'s booking waits for the payment of {@code othersPaying}: says what holds it, from the evidence
     * (a local lock still held, or none), and what a short critical section looks like.
     */
    private BookingStuck stuck(String customer, List<String> othersPaying) {
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

    /** Approves {@code customer}'s pending payment: they must be told their seat is booked, at once. */
    void approve(String customer) {
      story.add(customer + "'s payment is approved");
      charge(customer).open(null);
      Future<Message<String>> reply = replies.get(customer);
      payments.signal.await(reply::isComplete, WAIT_MILLIS);
      List<String> others = paying.stream().filter(c -> !c.equals(customer)).toList();
      if (!reply.isComplete()) {
        throw fail(customer + "'s payment was approved, but " + customer + " had no answer within " + WAIT_MILLIS
            + " ms" + (others.isEmpty() ? "." : ", while " + names(others) + "'s payment was still pending. Each "
            + "customer must be answered when their own payment completes, not when the others' do."));
      }
      if (reply.failed()) {
        throw fail(customer + "'s payment was approved, but the booking failed with " + describe(reply) + ".");
      }
      paying.remove(customer);
      sold.add(customer);
      checkFree(Step.APPROVED, customer);
      checkNoEarlyAnswers();
    }

    /** Declines {@code customer}'s pending payment: they must be told why, and their seat must be free again. */
    void decline(String customer, String reason) {
      story.add(customer + "'s payment is declined");
      charge(customer).fail(new PaymentDeclinedException(reason));
      Future<Message<String>> reply = replies.get(customer);
      payments.signal.await(reply::isComplete, WAIT_MILLIS);
      if (!reply.isComplete()) {
        throw fail(customer + "'s payment was declined (\"" + reason + "\"), but " + customer + " had no answer "
            + "within " + WAIT_MILLIS + " ms: the failure was lost. Let the payment's failure fail the booking.");
      }
      if (reply.succeeded()) {
        throw fail(customer + "'s payment was declined (\"" + reason + "\"), yet " + customer + " was told \""
            + reply.result().body() + "\": a seat given away unpaid.");
      }
      String message = String.valueOf(reply.cause().getMessage());
      if (failureCode(reply) != BoxOfficeVerticle.PAYMENT_DECLINED || !message.contains(reason)) {
        throw fail(customer + "'s payment was declined with \"" + reason + "\", so the booking should fail with "
            + "PAYMENT_DECLINED (" + BoxOfficeVerticle.PAYMENT_DECLINED + ") and that reason, but it failed with "
            + describe(reply) + ". Let the PaymentDeclinedException reach the reply as it is.");
      }
      paying.remove(customer);
      free++;
      checkFree(Step.DECLINED, customer);
      checkNoEarlyAnswers();
    }

    /** Books, and approves the payment if the model says {@code customer} got a seat. */
    void bookAndPay(String customer) {
      book(customer);
      if (paying.contains(customer)) {
        approve(customer);
      }
    }

    void approveEveryonePaying() {
      List.copyOf(paying).forEach(this::approve);
    }

    /** The customers paying right now, in the order they started paying. */
    List<String> payingNow() {
      return List.copyOf(paying);
    }

    /**
     * The {@code group} book at the same moment: their requests are queued on the box office's event loop in one
     * task, so that each booking's first step has run before any continuation of another. Exactly as many as there
     * are free seats must be asked to pay; the others must be refused at once.
     */
    void bookTogether(List<String> group) {
      int seatsLeft = free;
      story.add(names(group) + " book at the same moment");
      Context box = contextOfTheBoxOffice();
      CompletableFuture<Void> sent = new CompletableFuture<>();
      box.runOnContext(v -> {
        for (String customer : group) {
          Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, fresh(customer));
          replies.put(customer, reply);
          reply.onComplete(done -> payments.signal.fire());
        }
        sent.complete(null);
      });
      await(Future.fromCompletionStage(sent), WAIT_MILLIS, "The box office's event loop did not run a task within "
          + WAIT_MILLIS + " ms: is something blocking it?");
      // The first booking needs one event-bus hop; once one of them pays, the others get the margin of a booking
      // that must not wait for a pending payment.
      payments.signal.await(() -> group.stream().anyMatch(c -> payments.chargeOf(c).isPresent()
          || replies.get(c).isComplete()), WAIT_MILLIS);
      payments.signal.await(() -> group.stream().allMatch(c -> payments.chargeOf(c).isPresent()
          || replies.get(c).isComplete()), NOT_STUCK_MILLIS);
      List<String> charged = group.stream().filter(c -> payments.chargeOf(c).isPresent()).toList();
      List<String> refused = group.stream().filter(c -> !charged.contains(c)).toList();
      int shouldPay = Math.min(seatsLeft, group.size());
      if (charged.size() > shouldPay) {
        int now = readFree();
        throw fail(names(group) + " booked at the same moment, with " + seatsLeft + " seat(s) free, and "
            + (charged.size() == group.size() ? "all " + charged.size() : charged.size() + " of them ("
            + names(charged) + ")") + " were asked to pay: a seat is being sold twice. free() now answers " + now
            + ". Each booking decided \"a seat is free\" from a count the others had not yet taken from: between "
            + "its check and its take there was an await (a lock that was not free at once, a message, a callback), "
            + "and the other bookings ran in that gap. Check for a free seat and take it in one synchronous step, "
            + "with no await between them" + payments.inCode() + ".");
      }
      List<String> silent = refused.stream().filter(c -> !replies.get(c).isComplete()).toList();
      if (!silent.isEmpty() && !charged.isEmpty() && charged.size() < shouldPay) {
        paying.addAll(charged);
        free -= charged.size();
        throw stuck(silent.get(0), charged);
      }
      for (String customer : refused) {
        Future<Message<String>> reply = replies.get(customer);
        if (!reply.isComplete()) {
          throw fail(customer + " was neither asked to pay nor answered, while " + (charged.isEmpty()
              ? "nobody was asked to pay either" : names(charged) + (charged.size() == 1 ? " was" : " were")
              + " asked to pay") + ".");
        }
        if (charged.size() < shouldPay) {
          throw fail(customer + " was answered " + describe(reply) + " without being asked to pay, although " + seatsLeft
              + " seat(s) were free for " + group.size() + " customers and only " + charged.size() + " of them "
              + "(" + names(charged) + ") are paying: a seat that is free must be sold.");
        }
        if (reply.succeeded() || failureCode(reply) != BoxOfficeVerticle.SOLD_OUT) {
          throw fail(customer + " should have been refused with SOLD_OUT (" + BoxOfficeVerticle.SOLD_OUT + "), "
              + "since the other " + charged.size() + " took the " + seatsLeft + " free seat(s), but the booking "
              + "answered " + describe(reply) + ".");
        }
      }
      free -= charged.size();
      paying.addAll(charged);
      story.set(story.size() - 1, names(group) + " book at the same moment; " + (charged.isEmpty() ? "nobody"
          : names(charged)) + " pay" + (charged.size() == 1 ? "s" : "") + (refused.isEmpty() ? ""
          : "; " + names(refused) + (refused.size() == 1 ? " is" : " are") + " refused"));
      checkFree(Step.HELD, names(charged));
      checkNoEarlyAnswers();
    }

    /** Fails {@code customer}'s pending payment with {@code error}, which is not a decline: their seat must come back. */
    void failPayment(String customer, Throwable error) {
      story.add(customer + "'s payment fails: " + error.getMessage());
      charge(customer).fail(error);
      Future<Message<String>> reply = replies.get(customer);
      payments.signal.await(reply::isComplete, WAIT_MILLIS);
      if (!reply.isComplete()) {
        throw fail(customer + "'s payment failed (" + error + "), but " + customer + " had no answer within "
            + WAIT_MILLIS + " ms: the failure was lost. Let every failure of the payment fail the booking.");
      }
      if (reply.succeeded()) {
        throw fail(customer + "'s payment failed (" + error + "), yet " + customer + " was told \""
            + reply.result().body() + "\": a seat given away unpaid.");
      }
      paying.remove(customer);
      free++;
      checkFree(Step.FAILED, customer);
      checkNoEarlyAnswers();
    }

    /**
     * {@code customer} books, and the payment client throws {@code error} when it is called, instead of returning a
     * future: the booking must fail, and the seat it took must be free again.
     */
    void bookWhoseChargeThrows(String customer, String message) {
      payments.throwFor(customer, message);
      IllegalStateException error = new IllegalStateException(message);
      story.add(customer + " books, and the call to charge throws " + error.getClass().getSimpleName() + ": "
          + error.getMessage());
      Future<Message<String>> reply = vertx.eventBus().request(BoxOfficeVerticle.BOOK_ADDRESS, fresh(customer));
      replies.put(customer, reply);
      reply.onComplete(done -> payments.signal.fire());
      // A correct booking answers within microseconds of the throw; a second is a wide margin on a busy machine.
      payments.signal.await(reply::isComplete, NOT_STUCK_MILLIS);
      boolean called = payments.threw(customer);
      if (!reply.isComplete()) {
        throw fail(customer + "'s booking had no answer " + NOT_STUCK_MILLIS + " ms after " + (called
            ? "the call to charge threw " + error + " instead of failing its future" + payments.thrownFrom(customer)
            + ". The exception escaped book(), so the reply was never sent and the seat it took stays taken. A "
            + "client may throw instead of failing its future: make the call inside compose or Future.future (they "
            + "turn an exception into a failed future), or catch it, and treat it as a failed payment: give the seat "
            + "back and fail the booking."
            : "booking; it never called charge."));
      }
      if (reply.succeeded()) {
        throw fail(customer + "'s call to charge threw " + error + ", yet " + customer + " was told \""
            + reply.result().body() + "\": a seat given away unpaid.");
      }
      if (called) {
        checkFree(Step.FAILED, customer);
      } else {
        checkFree(Step.REFUSED, customer);
      }
      checkNoEarlyAnswers();
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

    /** Compares {@code free()} with the model after {@code step}, and explains a difference in the step's terms. */
    private void checkFree(Step step, String customer) {
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
    private void checkNoEarlyAnswers() {
      for (String customer : paying) {
        Future<Message<String>> reply = replies.get(customer);
        if (reply.isComplete()) {
          throw fail(customer + " got an answer (" + describe(reply) + ") while " + customer + "'s payment was "
              + "still pending. Answer each booking when its own payment completes: a confirmation when it is "
              + "approved, PAYMENT_DECLINED when it is declined.");
        }
      }
    }

    private int readFree() {
      Message<Object> answer = await(vertx.eventBus().request(BoxOfficeVerticle.FREE_ADDRESS, null), WAIT_MILLIS,
          "A request to " + BoxOfficeVerticle.FREE_ADDRESS + " had no answer within " + WAIT_MILLIS + " ms. "
              + story());
      if (!(answer.body() instanceof Number n)) {
        throw fail(BoxOfficeVerticle.FREE_ADDRESS + " should answer free() as a number, but answered "
            + answer.body() + ".");
      }
      return n.intValue();
    }

    /** What is taken, in words: "2 held for ada and bob, who are paying; 1 sold to cyd". */
    private String taken() {
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

    private String story() {
      return "What happened, in order: " + String.join("; ", story) + ".";
    }

    private AssertionFailedError fail(String what) {
      String sites = payments.inCode();
      String where = sites.isEmpty() || what.contains("your code called charge") ? ""
          : " Y" + sites.substring(3, sites.length() - 1) + ".";
      return new AssertionFailedError(what + where + " " + story());
    }

    @Override
    public void close() {
      try {
        if (ownsVertx) {
          // Closing the instance drops every pending payment, lock and reply of this order with it.
          vertx.close().toCompletionStage().toCompletableFuture().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } else {
          for (Gate<Void> gate : payments.gates()) {
            if (gate.isPending()) {
              gate.open(null);
            }
          }
          vertx.undeploy(deploymentId).toCompletionStage().toCompletableFuture()
              .get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
      } catch (Exception e) {
        // Best effort: the test has its verdict already, and vertx-junit5 closes the shared instance anyway.
      }
    }
  }

  /**
   * The payment service: every charge stays pending until the test approves ({@link Gate#open}) or declines
   * ({@link Gate#fail}) it, on the context that asked. Nested in the test class, so that the guard never mistakes
   * its frames for the learner's code.
   */
  static final class HeldPayments implements PaymentService {

    private final GatedDependency<String, Void> gated = new GatedDependency<>();
    /** Fired when a charge is made or a reply arrives, so that the test can wait for either. */
    final Signal signal = new Signal();

    private final Map<String, String> throwing = new ConcurrentHashMap<>();
    /** Where the learner's code made each call that threw, by customer. */
    private final Map<String, String> thrownFrom = new ConcurrentHashMap<>();

    @Override
    public Future<Void> charge(String customer) {
      String message = throwing.get(customer);
      if (message != null) {
        thrownFrom.put(customer, io.looplab.grader.sync.CallSite.ofCurrentCall().orElse("(unknown)"));
        signal.fire();
        throw new IllegalStateException(message); // created here, so that its stack shows the learner's call
      }
      Future<Void> outcome = gated.apply(customer);
      signal.fire();
      return outcome;
    }

    /** Makes the call to charge {@code customer} throw an IllegalStateException, instead of returning a future. */
    void throwFor(String customer, String message) {
      throwing.put(customer, message);
    }

    boolean threw(String customer) {
      return thrownFrom.containsKey(customer);
    }

    String thrownFrom(String customer) {
      String site = thrownFrom.get(customer);
      return site == null || site.equals("(unknown)") ? "" : " (called from " + site + ")";
    }

    /** Where the learner's code called charge, as " (your code called charge from book() at ...)", or "". */
    String inCode() {
      Set<String> sites = new LinkedHashSet<>();
      gated.calledSoFar().forEach(g -> g.callSite().ifPresent(sites::add));
      return sites.isEmpty() ? "" : " (your code called charge from " + String.join(" and ", sites) + ")";
    }

    List<Gate<Void>> gates() {
      return gated.calledSoFar();
    }

    Optional<Gate<Void>> chargeOf(String customer) {
      return gates().stream().filter(g -> customer.equals(g.argument())).findFirst();
    }

    Gate<Void> awaitCharge(String customer) {
      signal.await(() -> chargeOf(customer).isPresent(), WAIT_MILLIS);
      return chargeOf(customer).orElseThrow(() -> new AssertionFailedError(customer + "'s booking did not reach "
          + "the payment service within " + WAIT_MILLIS + " ms, with nobody else booking."));
    }
  }

  /**
   * The name as a request delivers it: a new String, decoded from bytes, never the test's literal. Code that tells
   * customers apart by identity ({@code ==}, {@code synchronized} on the name) sees what it would see in production.
   */
  static String fresh(String name) {
    return new String(name.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }

  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static String names(java.util.Collection<String> customers) {
    List<String> list = List.copyOf(customers);
    if (list.size() <= 1) {
      return String.join("", list);
    }
    return String.join(", ", list.subList(0, list.size() - 1)) + " and " + list.get(list.size() - 1);
  }

  private static int failureCode(Future<?> reply) {
    return reply.cause() instanceof ReplyException e ? e.failureCode() : -1;
  }

  /** A reply, as a learner reads it: "a confirmation", or "failure 409: sold out: ...". */
  private static String describe(Future<Message<String>> reply) {
    if (reply.succeeded()) {
      return "the confirmation \"" + reply.result().body() + "\"";
    }
    return reply.cause() instanceof ReplyException e
        ? "failure " + e.failureCode() + ": " + e.getMessage()
        : "the error " + reply.cause();
  }

  private static void awaitAnswer(Future<Message<String>> reply) {
    try {
      reply.toCompletionStage().toCompletableFuture().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException answeredWithAFailure) {
      // an answer all the same
    } catch (TimeoutException e) {
      throw new AssertionFailedError("A booking had no answer within " + WAIT_MILLIS + " ms of its payment's "
          + "outcome. Answer every booking: a confirmation, or a failure.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }

  /** Waits on the test's own thread, never on an event loop; {@code ifLate} explains what a timeout means. */
  private static <T> T await(Future<T> future, long millis, String ifLate) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(millis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionFailedError(ifLate);
    } catch (ExecutionException e) {
      throw new AssertionFailedError("Failed where an answer was expected: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError("interrupted", e);
    }
  }
}
