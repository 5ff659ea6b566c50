package io.looplab.eventloop;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;

import static io.looplab.grader.testkit.Checks.require;

/** The verdict on the answer to a dashboard whose lookup failed. */
final class FailedAnswer {

  private FailedAnswer() {
  }

  /**
   * Asserts that {@code response} is the error a failed lookup must give: a 5xx whose body has the failure's
   * {@code reason}, and never a partial dashboard.
   */
  static void assertFailedWith(HttpResponse<Buffer> response, String failing, String reason) {
    require(response.statusCode() >= 500 && response.statusCode() < 600, failing + " failed with \""
        + reason + "\", but the dashboard answered " + response.statusCode() + ": " + response.bodyAsString()
        + (response.statusCode() == 200 ? ". That is a partial dashboard presented as a success: the "
        + "caller cannot tell it from a user who really has no orders or no profile." : ".")
        + " A failed lookup must fail the answer: Future.all fails as soon as one of its futures fails; "
        + "answer 502 with the error's message.");
    require(response.bodyAsString() != null && response.bodyAsString().contains(reason), failing
        + " failed with \"" + reason + "\", and the dashboard answered " + response.statusCode()
        + ", but its body (" + response.bodyAsString() + ") does not say why. Put the error's message in "
        + "the body, so that the caller knows which service to blame.");
  }
}
