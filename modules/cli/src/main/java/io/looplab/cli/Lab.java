package io.looplab.cli;

import io.looplab.cli.commands.CheckCommand;
import io.looplab.cli.commands.GradeCommand;
import io.looplab.cli.commands.HandoutCommand;
import io.looplab.cli.commands.HintCommand;
import io.looplab.cli.commands.JoinCommand;
import io.looplab.cli.commands.ListCommand;
import io.looplab.cli.commands.OriginalsCommand;
import io.looplab.cli.commands.ResetCommand;
import io.looplab.cli.commands.ServeCommand;
import io.looplab.cli.commands.SolutionCommand;
import io.looplab.cli.commands.SubmitCommand;
import io.looplab.cli.commands.VersionCommand;
import io.looplab.cli.commands.WatchCommand;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.UsageError;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code lab} command: list, check, hint, reset, solution and grade. Exit status 0 when it ran, 2 for bad usage
 * or input.
 */
@Command(name = "lab", version = Lab.VERSION,
    description = "Graded Vert.x 5 exercises on a real event loop.",
    subcommands = {ListCommand.class, CheckCommand.class, WatchCommand.class, HintCommand.class, ResetCommand.class,
        SolutionCommand.class, GradeCommand.class, HandoutCommand.class, OriginalsCommand.class, VersionCommand.class,
        JoinCommand.class, SubmitCommand.class, ServeCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Start with: ./lab list, then ./lab check <id> (or its number: ./lab check 02). Stuck? ./lab hint "
        + "<id>. Help on a command: ./lab help <command>."})
public final class Lab implements Runnable {

  public static final int USAGE = 2;

  /** What ./lab version says, and what ./lab submit sends as the kit's version. */
  public static final String VERSION = "Loop Lab 1.0";

  @CommandLine.Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean helpRequested;

  /** -v as well as -V and --version: what people type first. */
  @CommandLine.Option(names = {"-V", "-v", "--version"}, versionHelp = true,
      description = "Print version information and exit.")
  boolean versionRequested;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line in this process's own terminal and returns the exit status. */
  public static int execute(String... args) {
    return run(new CommandLine(new Lab()), args);
  }

  /**
   * Runs the command line for another process's terminal, as that process would have run it: its output, help
   * included, to {@code console}; its one-line refusals to {@code err}. The check server answers its clients so.
   */
  public static int execute(Console console, PrintStream err, String... args) {
    CommandLine cli = new CommandLine(new Lab());
    cli.setOut(new PrintWriter(new OutputStreamWriter(console.out(), StandardCharsets.UTF_8), true));
    cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
    cli.setColorScheme(CommandLine.Help.defaultColorScheme(console.colour() ? CommandLine.Help.Ansi.ON
        : CommandLine.Help.Ansi.OFF));
    int exit = Console.within(console, () -> run(cli, args));
    cli.getOut().flush();
    cli.getErr().flush();
    return exit;
  }

  private static int run(CommandLine cli, String... args) {
    cli.setParameterExceptionHandler((e, a) -> {
      e.getCommandLine().getErr().println("lab: " + UsageLine.of(e));
      return USAGE;
    });
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      PrintWriter err = commandLine.getErr();
      if (e instanceof UsageError) {
        err.println("lab: " + e.getMessage());
        return USAGE;
      }
      // Not the user's fault: one line here, the whole story in the log.
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      Path log = Path.of(io.looplab.grader.internal.settings.Settings.HOME.value(), "target", "lab", "error.log");
      try {
        Files.createDirectories(log.getParent());
        Files.writeString(log, trace.toString());
      } catch (IOException ignored) {
        // the one line below is still printed
      }
      err.println("lab: internal error: " + e + " (details in " + log + "; please report it)");
      return 1;
    });
    return cli.execute(args);
  }
}
