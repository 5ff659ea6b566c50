package io.looplab.cli;

import io.looplab.cli.engine.Closeness;
import picocli.CommandLine;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.UnmatchedArgumentException;

import java.util.Arrays;
import java.util.List;

/**
 * The one line a mistyped command line gets, in the kit's words rather than picocli's: a command or option that does
 * not exist, with the closest real one ({@link Closeness}, the rule exercise ids use); an exercise left out, with what
 * to type. Anything else keeps picocli's own sentence. Each ends by saying where the help is.
 */
final class UsageLine {

  private UsageLine() {
  }

  static String of(CommandLine.ParameterException e) {
    CommandLine where = e.getCommandLine();
    boolean top = where.getParent() == null;
    String command = top ? "lab" : "lab " + where.getCommandName();
    String help = top ? "./lab help" : "./lab help " + where.getCommandName();
    if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
      String first = unmatched.getUnmatched().get(0);
      if (first.equals("--all") && where.getCommandName().equals("check")) {
        return "check grades one exercise (./lab check 02, say); ./lab grade grades them all";
      }
      if (first.startsWith("-")) {
        List<String> options = where.getCommandSpec().options().stream()
            .flatMap(o -> Arrays.stream(o.names())).filter(n -> n.startsWith("--")).toList();
        return "unknown option '" + first + "' for " + command + suggestion(first, options) + " (try " + help + ")";
      }
      if (top) {
        List<String> commands = List.copyOf(where.getSubcommands().keySet());
        return "there is no command '" + first + "'" + suggestion(first, commands) + " (./lab help lists them)";
      }
    }
    if (e instanceof MissingParameterException missing && !top
        && missing.getMissing().stream().anyMatch(UsageLine::isExerciseId)) {
      String name = where.getCommandName();
      return name + " needs an exercise: ./lab " + name + " 02, say, or its id (./lab list shows them"
          + (name.equals("check") ? "; ./lab grade grades them all" : "") + ")";
    }
    return e.getMessage().strip().replace('\n', ' ') + " (try " + help + ")";
  }

  private static boolean isExerciseId(ArgSpec arg) {
    return arg.isPositional() && "ID".equals(arg.paramLabel());
  }

  private static String suggestion(String typed, List<String> names) {
    List<String> close = Closeness.closest(typed, names, 1);
    return close.isEmpty() ? "" : ". Did you mean '" + close.get(0) + "'?";
  }
}
