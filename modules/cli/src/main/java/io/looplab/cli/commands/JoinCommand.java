package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.UsageError;
import io.looplab.cli.session.JoinedSession;
import io.looplab.cli.session.Outbox;
import io.looplab.cli.session.SessionHttp;
import io.looplab.cli.session.SessionUrl;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Joins the instructor's live session: from then on every check and watch verdict of this kit is sent to it. The
 * URL is asked first (GET /api/ping), so that a typo says so before the code is sent anywhere; nothing is stored
 * until the server has given a token.
 */
@Command(name = "join",
    description = "Join your instructor's live session (the line ./lab serve shows): from then on each check and "
        + "watch verdict is sent to it. --leave stops that.",
    footerHeading = "%nExamples:%n",
    footer = {"  ./lab join http://192.168.1.20:8080 KXPRTW", "  ./lab join http://192.168.1.20:8080 KXPRTW --name "
        + "\"Ada Lovelace\"", "  ./lab join --leave"})
public final class JoinCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URL", description = "the session server's address")
  String url;

  @Parameters(index = "1", arity = "0..1", paramLabel = "CODE", description = "the session's code (6 letters)")
  String code;

  @Option(names = "--name", paramLabel = "NAME",
      description = "the name the instructor sees (default: git config user.name, else your user name)")
  String name;

  @Option(names = "--leave", description = "forget the session: nothing more is sent, queued results are dropped")
  boolean leave;

  @Override
  public void run() {
    Kit kit = Kit.locate();
    Console console = Console.current();
    if (leave) {
      if (url != null || name != null) {
        throw new UsageError("--leave takes nothing else: ./lab join --leave");
      }
      leave(kit, console);
      return;
    }
    if (url == null || code == null) {
      throw new UsageError("join needs the session's address and code, as your instructor shows them: "
          + "./lab join http://192.168.1.20:8080 KXPRTW");
    }
    String base = SessionUrl.parse(url);
    String learnerName = learnerName(kit);
    SessionHttp http = new SessionHttp();
    String session = ping(http, base);
    SessionHttp.Answer joined = ask(http, base, () -> http.post(base + "/api/join", null,
        new JsonObject().put("code", code.strip()).put("name", learnerName).encode()));
    if (joined.status() == 403) {
      throw new UsageError("the session at " + base + " does not take the code '" + code.strip()
          + "': check it with your instructor (nothing was stored)");
    }
    if (!joined.accepted() || !(joined.body().getValue("token") instanceof String token)
        || !(joined.body().getValue("learner") instanceof String learner)) {
      throw new UsageError("the session at " + base + " did not let you join: " + joined.error()
          + " (nothing was stored)");
    }
    JoinedSession now = new JoinedSession(base, learner, token, learnerName);
    Optional<JoinedSession> before = JoinedSession.of(kit);
    int dropped = before.isPresent() && !before.get().sameLearnerAs(now) ? new Outbox(kit).clear() : 0;
    now.save(kit);
    console.line("Joined " + session + " at " + base + " as " + learnerName + ": each ./lab check and watch verdict"
        + " is sent to it from now on (./lab join --leave stops that)."
        + (dropped > 0 ? " " + dropped + " result" + (dropped == 1 ? "" : "s") + " queued for the previous session "
            + (dropped == 1 ? "was" : "were") + " dropped." : ""));
  }

  private static void leave(Kit kit, Console console) {
    Optional<JoinedSession> session = JoinedSession.of(kit);
    int dropped = new Outbox(kit).clear();
    boolean had = JoinedSession.forget(kit);
    if (!had) {
      console.line("This kit is in no session: there is nothing to leave.");
      return;
    }
    console.line("Left the session" + session.map(s -> " at " + s.url()).orElse("") + ": nothing more is sent"
        + (dropped > 0 ? " (" + dropped + " result" + (dropped == 1 ? "" : "s") + " still queued dropped)" : "")
        + ".");
  }

  /** The session's name from GET /api/ping, or one line saying why the address is not a session server. */
  private static String ping(SessionHttp http, String base) {
    SessionHttp.Answer ping = ask(http, base, () -> http.get(base + "/api/ping"));
    if (ping.status() != 200 || !"looplab".equals(ping.body().getValue("kit"))) {
      throw new UsageError(base + " answers, but it is not a Loop Lab session server (GET /api/ping gave "
          + ping.status() + "): check the address with your instructor (nothing was stored)");
    }
    return ping.body().getValue("session") instanceof String s && !s.isBlank() ? "the session '" + s + "'"
        : "the session";
  }

  private interface Call {
    SessionHttp.Answer run() throws SessionHttp.Away;
  }

  private static SessionHttp.Answer ask(SessionHttp http, String base, Call call) {
    try {
      return call.run();
    } catch (SessionHttp.Away away) {
      throw new UsageError("no session server answers at " + base + " (" + away.getMessage() + "): check the address"
          + " with your instructor, and that this machine is on the room's network (nothing was stored)");
    }
  }

  /** --name, else git's user.name in this kit, else the account's name; 1 to 60 characters, as the server wants. */
  private String learnerName(Kit kit) {
    String chosen = name != null ? name.strip() : gitUserName(kit).orElse(System.getProperty("user.name", "")).strip();
    if (chosen.isEmpty() || chosen.length() > 60) {
      throw new UsageError(name != null ? "a name has 1 to 60 characters: --name \"Ada Lovelace\""
          : "no name found for you (git config user.name is not set): give one with --name \"Ada Lovelace\"");
    }
    return chosen;
  }

  private static Optional<String> gitUserName(Kit kit) {
    try {
      Process git = new ProcessBuilder("git", "-C", kit.root().toString(), "config", "user.name")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      if (!git.waitFor(2, TimeUnit.SECONDS)) {
        git.destroyForcibly();
        return Optional.empty();
      }
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return git.exitValue() == 0 && !out.isEmpty() ? Optional.of(out) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
