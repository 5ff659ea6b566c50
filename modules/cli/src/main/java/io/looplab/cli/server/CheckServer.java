package io.looplab.cli.server;

import io.looplab.cli.Lab;
import io.looplab.cli.commands.CheckCommand;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.Target;
import io.looplab.cli.engine.TerminalWidth;
import io.looplab.cli.engine.TextLayout;
import io.looplab.cli.engine.UsageError;
import io.looplab.report.ExerciseResult;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Keeps {@code lab check} warm: a JVM that stays up between checks, with the compiler already loaded and, for the
 * exercise checked last, the next grading JVM already started and waiting. A check then costs the compile of a few
 * files and the tests themselves. Every grading still runs in a JVM of its own, started for it alone, so a hang,
 * System.exit or a leaked thread in the learner's code never reaches the next check.
 *
 * <p>The lab script talks to it over 127.0.0.1 with bash alone: a secret from {@link ServerFile} first, then the
 * request, then it copies the answer to the terminal. While it runs, it also answers the quick commands
 * ({@link #QUICK}: help, list, hint and the like), which would otherwise each start a JVM. It stops after
 * {@value #IDLE_MINUTES} idle minutes, when the kit is rebuilt (its build stamp changes), or when asked.
 */
public final class CheckServer {

  static final int IDLE_MINUTES = 10;

  /**
   * The commands it answers besides check: they read the kit and print, and ask nothing (reset only with --yes), so
   * a warm JVM answers them in milliseconds where a new one takes most of a second.
   */
  static final Set<String> QUICK = Set.of("help", "list", "hint", "solution", "reset", "version", "-h", "--help",
      "-v", "-V", "--version");

  /** More arguments than any quick command takes: a request beyond it is cut there, and refused by picocli. */
  private static final int MAX_ARGS = 16;

  private final Kit kit;
  private final ServerFile file;
  private final long stamp;
  private final GradingEngine engine;

  private CheckServer(Kit kit) {
    this.kit = kit;
    this.file = new ServerFile(kit);
    this.stamp = buildStamp(kit);
    this.engine = new GradingEngine(kit, false);
  }

  public static void main(String[] args) throws IOException {
    new CheckServer(Kit.locate()).serve();
  }

  private void serve() throws IOException {
    String secret = HexFormat.of().formatHex(secretBytes());
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      server.setSoTimeout(IDLE_MINUTES * 60_000);
      file.write(server.getLocalPort(), secret, ProcessHandle.current().pid(), stamp);
      while (true) {
        try (Socket client = server.accept()) {
          if (!handle(client, secret)) {
            break;
          }
        } catch (SocketTimeoutException idle) {
          break;
        } catch (IOException | RuntimeException e) {
          // one broken request (a client gone mid-answer) ends that request only
        }
        if (buildStamp(kit) != stamp) {
          break;
        }
      }
    } finally {
      file.deleteIfMine(ProcessHandle.current().pid());
      engine.close();
    }
  }

  /**
   * One request: the secret; then "check" and the exercise, or "run", a count and that many arguments of a quick
   * command ({@link #QUICK}); then "tty" and "colour" flags (0 or 1), the files for the exit status and any error
   * lines, whether the output is a terminal (0 or 1) and the client's two answers about its width (COLUMNS and
   * {@code stty size}, either empty). False when the server should stop. A request it does not take gets no status
   * file: the client then runs the command itself.
   */
  private boolean handle(Socket client, String secret) throws IOException {
    client.setSoTimeout(5_000);
    BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
    if (!secret.equals(in.readLine())) {
      return true;
    }
    String command = in.readLine();
    if ("stop".equals(command)) {
      return false;
    }
    List<String> args = new ArrayList<>();
    if ("check".equals(command)) {
      args.add(in.readLine());
    } else if ("run".equals(command)) {
      int count = Integer.parseInt(String.valueOf(in.readLine()).strip());
      for (int i = 0; i < count && i < MAX_ARGS; i++) {
        args.add(in.readLine());
      }
    } else {
      return true;
    }
    boolean tty = "1".equals(in.readLine());
    boolean colour = "1".equals(in.readLine());
    Path status = Path.of(in.readLine());
    Path error = Path.of(in.readLine());
    boolean screen = "1".equals(in.readLine());
    String columns = in.readLine();
    String sttySize = in.readLine();
    int width = screen ? TerminalWidth.decide(columns, sttySize) : TextLayout.UNLIMITED;
    if (args.contains(null)) {
      return true;
    }
    Console console = Console.of(client.getOutputStream(), tty, colour, width);
    if ("run".equals(command)) {
      if (isQuick(args)) {
        run(args, console, status, error);
      }
      return true;
    }
    check(args.get(0), in, client, console, status, error);
    return true;
  }

  /** Whether a command is one the server answers, quick and asking nothing: see {@link #QUICK}. */
  static boolean isQuick(List<String> args) {
    return !args.isEmpty() && QUICK.contains(args.get(0))
        && (!args.get(0).equals("reset") || args.contains("-y") || args.contains("--yes"));
  }

  /** A quick command, printed to the client's terminal as its own JVM would have printed it. */
  private static void run(List<String> args, Console console, Path status, Path error) throws IOException {
    ByteArrayOutputStream refusals = new ByteArrayOutputStream();
    int exit = Lab.execute(console, new PrintStream(refusals, true, StandardCharsets.UTF_8),
        args.toArray(String[]::new));
    console.out().flush();
    if (refusals.size() > 0) {
      writeAtomically(error, refusals.toString(StandardCharsets.UTF_8));
    }
    writeAtomically(status, exit + "\n");
  }

  private void check(String id, BufferedReader in, Socket client, Console console, Path status, Path error)
      throws IOException {
    client.setSoTimeout(0);
    // A client that goes away (Ctrl-C) closes the socket: the grading it asked for stops too, and only that one.
    java.util.concurrent.atomic.AtomicBoolean answering = new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread hangUp = new Thread(() -> {
      try {
        while (in.read() >= 0) {
          // nothing more is expected from the client
        }
      } catch (IOException ignored) {
        // closed
      }
      if (answering.get()) {
        engine.cancelCurrent();
      }
    }, "lab-server-hang-up");
    hangUp.setDaemon(true);
    hangUp.start();
    int exit = 0;
    try {
      Kit fresh = Kit.locate();
      Exercise exercise = fresh.find(id);
      ExerciseResult report = CheckCommand.check(fresh, exercise, console, engine);
      // Ready for the learner's next check: this exercise again, or after full marks the next one, which the
      // footer has just named.
      Target target = Target.exercises(fresh);
      engine.prepareNext(exercise, target);
      if (report.isComplete()) {
        new Results(fresh).nextNotDone(exercise).ifPresent(next -> engine.prepareNext(next, target));
      }
      engine.trainCompiler(exercise, target);
    } catch (UsageError e) {
      writeAtomically(error, "lab: " + e.getMessage() + "\n");
      exit = 2;
    }
    answering.set(false);
    console.out().flush();
    writeAtomically(status, exit + "\n");
  }

  private static void writeAtomically(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** 16 random bytes from the system's non-blocking source (generateSeed may wait for entropy). */
  private static byte[] secretBytes() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  /** The time of the kit's last build by the lab script: a new build means new machinery, so a new server. */
  static long buildStamp(Kit kit) {
    try {
      return Files.getLastModifiedTime(kit.root().resolve("target/lab-build.stamp")).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
