package io.looplab.reserve;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.looplab.reserve.EveryOrderUntilStuck.everyOrder;

/**
 * Grades that BoxOfficeVerticle never sells a seat twice: whatever the order of payments and bookings, and when
 * bookings arrive together (queued on the box office's event loop in one go, so that each has read the count before
 * any other continues). Every name is decoded afresh for each request, as a real request's would be. After each
 * step the answers and {@code free()} are compared with a model of the show ({@link ShowModel}).
 */
@GradedVertxTest
@Order(3)
@Timeout(value = 10, timeUnit = TimeUnit.SECONDS)
@DisplayName("10 Reserve, then confirm: no seat sold twice, whatever the order")
class NoSeatSoldTwiceTest {

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(BoxOfficeWarmUp::steps);
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
}
