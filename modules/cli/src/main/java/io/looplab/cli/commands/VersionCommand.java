package io.looplab.cli.commands;

import io.looplab.cli.engine.Console;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lab version}, as {@code lab --version} (and -v, -V) says it: people type either. */
@Command(name = "version", description = "Print the kit's version, as ./lab --version does.",
    footerHeading = "%nExample:%n", footer = "  ./lab version")
public final class VersionCommand implements Runnable {

  @Mixin
  HelpOption help;

  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    for (String line : spec.parent().version()) {
      Console.current().line(line);
    }
  }
}
