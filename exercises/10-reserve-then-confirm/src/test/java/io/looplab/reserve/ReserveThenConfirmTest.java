package io.looplab.reserve;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.looplab.reserve.EveryOrderUntilStuck.everyOrder;

/**
 * Grades BoxOfficeVerticle's short critical section: a booking holds its seat while the customer pays, and the next
 * customers book and reach their own payment while earlier payments are still pending. The payment service is a
 * fake ({@link HeldPayments}) whose every charge stays pending until this test approves or declines it, so "bob
 * books while ada is still paying" is a situation the test creates on purpose, and every order in which the
 * payments can complete is tried. After each step the answers are compared with a model of the show
 * ({@link ShowModel}). The one wait that proves something does not happen is {@link Show#NOT_STUCK_MILLIS}.
 */
@GradedVertxTest
@Order(1)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("10 Reserve, then confirm: hold the seat at once, pay outside the critical section")
class ReserveThenConfirmTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(BoxOfficeWarmUp::steps);
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
}
