package io.looplab.reserve;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.testkit.WarmUp;
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
 * Grades BoxOfficeVerticle's rollback: a declined payment gives its seat back exactly once, in every order of the
 * other customers' payments, and so does a payment that fails in another way or whose call throws. Every charge of
 * the fake payment service ({@link HeldPayments}) stays pending until this test approves, declines or fails it;
 * after each step the answers and {@code free()} are compared with a model of the show ({@link ShowModel}).
 */
@GradedVertxTest
@Order(2)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("10 Reserve, then confirm: roll back exactly once, on every failure of the payment")
class RollbackExactlyOnceTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(BoxOfficeWarmUp::steps);
  }

  /** How a payment fails when it is neither approved nor declined: the bank never answered. */
  private static final String BANK_TIMEOUT = "the bank did not answer within 30 s";

  /** What the payment client throws, when a test makes its call throw instead of failing its future. */
  private static final String CLIENT_CLOSED = "the payment client is closed";

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
}
