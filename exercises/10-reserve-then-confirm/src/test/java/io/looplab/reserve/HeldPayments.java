package io.looplab.reserve;

import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.Gate;
import io.looplab.grader.sync.GatedDependency;
import io.looplab.grader.sync.Signal;
import io.looplab.payments.PaymentService;
import io.vertx.core.Future;
import org.opentest4j.AssertionFailedError;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.looplab.reserve.Show.WAIT_MILLIS;

/**
 * The payment service: every charge stays pending until the test approves ({@link Gate#open}) or declines
 * ({@link Gate#fail}) it, on the context that asked. It is compiled with the graded tests, so the guard never
 * mistakes its frames for the learner's code.
 */
final class HeldPayments implements PaymentService {

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
      thrownFrom.put(customer, CallSite.ofCurrentCall().orElse("(unknown)"));
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
