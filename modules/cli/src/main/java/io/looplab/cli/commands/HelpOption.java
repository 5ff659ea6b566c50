package io.looplab.cli.commands;

import picocli.CommandLine.Option;

/** {@code -h} / {@code --help} on every command (picocli's standard mixin would add {@code --version} too). */
public final class HelpOption {

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;
}
