package io.looplab.cli.commands;

import io.looplab.cli.classroom.LearnerResult;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Sandbox;
import io.looplab.cli.engine.UsageError;
import io.looplab.cli.session.JoinedSession;
import io.looplab.cli.session.KitSubmissionGrader;
import io.looplab.cli.session.LanAddress;
import io.looplab.cli.session.ServedSession;
import io.looplab.session.SessionOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.BindException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

/**
 * The instructor's live session: starts the session server of modules/session on this kit, grading each submission
 * as ./lab grade --class grades a learner, says the line learners type and the instructor's page, and runs until
 * Ctrl-C. Its state (code, key, learners, results, submissions) is kept in --data, so a restart loses nothing.
 */
@Command(name = "serve",
    description = "Run a live session for your class: learners join with the line it prints, their checks appear "
        + "on your live page as they run them, and ./lab submit hands in work, graded here. Ctrl-C stops it.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab serve                    (port 8080, this machine's address on the room's network)",
        "  ./lab serve --port 9000 --host 192.168.1.20", "  ./lab serve --data ../thursday-class"})
public final class ServeCommand implements Runnable {

  static final int DEFAULT_PORT = 8080;
  private static final String EVERY_INTERFACE = "0.0.0.0";

  @Mixin
  HelpOption help;

  /** A string, not an int: "80a" gets the kit's own line. */
  @Option(names = "--port", paramLabel = "N", description = "the port to listen on (default " + DEFAULT_PORT
      + "; 0 for any free one)")
  String port;

  @Option(names = "--host", paramLabel = "H", description = "the address to listen on and tell learners (default: "
      + "every interface, and this machine's address on the room's network)")
  String host;

  @Option(names = "--data", paramLabel = "DIR", description = "where the session keeps its state (default .lab/serve "
      + "in the kit): the same folder again resumes the session")
  Path data;

  @Option(names = "--db", paramLabel = "URL", description = "postgresql://user:password@host:port/database: the session in "
      + "PostgreSQL instead of the H2 file in --data")
  String db;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Console console = Console.current();
    int chosenPort = port == null ? DEFAULT_PORT : port(port);
    Path dataDir = (data != null ? data : JoinedSession.stateDir(kit).resolve("serve")).toAbsolutePath().normalize();
    String listen = host != null ? host.strip() : EVERY_INTERFACE;
    String address = advertised(listen, console);
    Optional<Sandbox> sandbox = Sandbox.onThisMachine();
    if (sandbox.isEmpty()) {
      console.line(Sandbox.missingWarning());
    }
    List<Exercise> exercises = GradeCommand.gradableHere(kit.exercises(), console);
    KitSubmissionGrader grader = new KitSubmissionGrader(kit, exercises, sandbox.orElse(null),
        result -> graded(console, result));
    ServedSession served = start(new SessionOptions(listen, chosenPort, "Loop Lab " + LocalDate.now(), dataDir, db),
        address, grader, chosenPort);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        served.close();
        console.line("");
        console.line("Session stopped. Everything is kept in " + dataDir + ": ./lab serve on it again resumes it.");
      } catch (Exception e) {
        console.line("The session server did not close cleanly: " + e);
      } finally {
        stopped.countDown();
      }
    }, "lab-serve-stop"));
    console.line("Learners type:");
    console.line("  " + served.joinLine());
    console.line("Your live page (its key is yours alone):");
    console.line("  " + served.instructorUrl("/"));
    console.line("The projector's view (no names; its key opens nothing else):");
    console.line("  " + served.projectorUrl());
    console.line("Submissions, graded here as they come: " + served.instructorUrl("/class.html") + " (CSV of the "
        + "latest checks: " + served.instructorUrl("/class.csv") + ")");
    console.line("State kept in " + dataDir + ". Ctrl-C stops the session.");
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ServedSession start(SessionOptions options, String address, KitSubmissionGrader grader, int port) {
    try {
      return ServedSession.start(options, address, grader);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UsageError("interrupted while the session server started");
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      for (Throwable t = cause; t != null; t = t.getCause()) {
        if (t instanceof BindException) {
          throw new UsageError("cannot listen on " + options.host() + ":" + port + " (" + t.getMessage() + "): "
              + "another program has the port, or the address is not this machine's; choose another with --port N "
              + "(0 for any free one) or --host");
        }
      }
      throw new UsageError("the session server did not start: " + cause.getMessage());
    }
  }

  /** The host learners type: --host as given, else this machine's LAN address (or 127.0.0.1, with a warning). */
  private static String advertised(String listen, Console console) {
    if (!listen.equals(EVERY_INTERFACE)) {
      return listen;
    }
    Optional<String> lan = LanAddress.ofThisMachine();
    if (lan.isEmpty()) {
      console.line("This machine has no address on a network besides 127.0.0.1: only learners on this machine can "
          + "join. Connect it to the room's network, or give the address with --host.");
    }
    return lan.orElse("127.0.0.1");
  }

  private static int port(String text) {
    try {
      int n = Integer.parseInt(text.strip());
      if (n >= 0 && n <= 65535) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new UsageError("--port " + text + ": a port is a number from 1 to 65535 (0 for any free one)");
  }

  private static void graded(Console console, LearnerResult result) {
    String line = result.isGraded()
        ? "Graded " + result.learner() + "'s submission: " + console.score(result.board().points(),
            result.board().max()) + String.format(" (%.1f s)", result.millis() / 1000.0)
        : "Could not grade " + result.learner() + "'s submission: " + result.problem();
    synchronized (console) {
      console.line(line);
    }
  }
}
