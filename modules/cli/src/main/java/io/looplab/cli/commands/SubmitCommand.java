package io.looplab.cli.commands;

import io.looplab.cli.Lab;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.UsageError;
import io.looplab.cli.session.JoinedSession;
import io.looplab.cli.session.Outbox;
import io.looplab.cli.session.SessionHttp;
import io.looplab.cli.session.SubmissionPack;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.charset.StandardCharsets;

/**
 * Hands in the learner's work to the session: every exercise's src/main in one post, graded on the instructor's
 * machine as ./lab grade --class grades a learner. Not queued: a submission is a moment the learner chooses, so a
 * server that is away is said at once, and the learner runs it again.
 */
@Command(name = "submit",
    description = "Hand in your work to the live session you joined: every exercise's src/main, graded on the "
        + "instructor's machine. Run it again any time: the latest counts.",
    footerHeading = "%nExample:%n", footer = "  ./lab submit")
public final class SubmitCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    JoinedSession session = JoinedSession.of(kit).orElseThrow(() -> new UsageError("this kit has joined no session, "
        + "so there is nowhere to submit: ./lab join URL CODE first (the line your instructor shows)"));
    SubmissionPack pack = SubmissionPack.of(kit);
    if (pack.files().isEmpty()) {
      throw new UsageError("nothing to submit: there is no file under exercises/*/src/main");
    }
    String body = pack.body(Lab.VERSION, new Outbox(kit).newId());
    int length = body.getBytes(StandardCharsets.UTF_8).length;
    if (length > SubmissionPack.LIMIT) {
      throw new UsageError("your work is " + SubmissionPack.size(length) + " to send, over the session's "
          + SubmissionPack.size(SubmissionPack.LIMIT) + " (nothing was sent); the biggest files are "
          + String.join(", ", pack.largest(3)) + ": remove what the exercises do not need");
    }
    String what = pack.exercises() + " exercise" + (pack.exercises() == 1 ? "" : "s") + ", " + pack.files().size()
        + " file" + (pack.files().size() == 1 ? "" : "s") + ", " + SubmissionPack.size(pack.bytes());
    SessionHttp.Answer answer;
    try {
      answer = new SessionHttp().withWholeCall(SessionHttp.SUBMISSION_CALL)
          .post(session.url() + "/api/submissions", session.token(), body);
    } catch (SessionHttp.Away away) {
      throw new UsageError("the session server at " + session.url() + " is away (" + away.getMessage() + "): "
          + "nothing was submitted, and a submission is not queued: run ./lab submit again when it is back");
    }
    if (answer.accepted()) {
      String id = answer.body().getValue("submission") instanceof String s ? " as " + s : "";
      Console.current().line("Submitted " + what + " to " + session.url() + ": the server took it" + id
          + " and grades it there." + leftOut(pack));
      return;
    }
    throw new UsageError(refusal(answer, session) + " (" + what + " not submitted)");
  }

  private static String refusal(SessionHttp.Answer answer, JoinedSession session) {
    return switch (answer.status()) {
      case 401 -> "the session at " + session.url() + " does not know this kit any more (" + answer.error()
          + "): join again with ./lab join " + session.url() + " CODE";
      case 413 -> "the session at " + session.url() + " says the submission is too big: " + answer.error();
      case 429 -> "the session server is busy: run ./lab submit again in "
          + answer.retryAfter().orElse("a few") + " s";
      default -> "the session at " + session.url() + " refused the submission: " + answer.error();
    };
  }

  private static String leftOut(SubmissionPack pack) {
    if (pack.leftOut().isEmpty()) {
      return "";
    }
    return " Left out, as their names have characters a submission cannot carry (letters, digits, . _ - only): "
        + String.join(", ", pack.leftOut()) + ".";
  }
}
