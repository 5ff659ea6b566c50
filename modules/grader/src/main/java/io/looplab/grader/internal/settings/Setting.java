package io.looplab.grader.internal.settings;

import java.util.Optional;

/**
 * One setting of the kit: a system property or an environment variable, its default as a person reads it, who reads
 * it, and what it does. Every setting is defined once, in {@link Settings}; CONTRIBUTING's table is checked against
 * that list, and no other class reads a property or a variable of the kit's by name.
 *
 * @param name the property's or the variable's name
 * @param source where its value comes from
 * @param byDefault the value when it is not set, in words when it is computed ("the cores + 1", "unset")
 * @param readBy which process reads it: the grading JVM, the kit's command line, ./lab, the self-test
 * @param doc what it changes, one sentence
 */
public record Setting(String name, Source source, String byDefault, String readBy, String doc) {

  /** A system property ({@code -Dname=value}) or an environment variable. */
  public enum Source { PROPERTY, ENVIRONMENT }

  /** What it is set to here, or empty when it is not set (an empty variable counts as not set). */
  public Optional<String> raw() {
    String value = source == Source.PROPERTY ? System.getProperty(name) : System.getenv(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /** Its value, or its default; only for a setting whose default is a value, not words. */
  public String value() {
    return raw().orElse(byDefault);
  }

  /** Its value as a number, or its default (a number) when it is not set or is not a number. */
  public long asLong() {
    return asLong(Long.parseLong(byDefault));
  }

  /** Its value as a number, or {@code fallback} (for a default in words) when it is not set or is not a number. */
  public long asLong(long fallback) {
    try {
      return raw().map(Long::parseLong).orElse(fallback);
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** Set to "true" (any case). */
  public boolean isTrue() {
    return raw().map("true"::equalsIgnoreCase).orElse(false);
  }

  /** Set to "false" (any case): for a setting that is on unless turned off. */
  public boolean isFalse() {
    return raw().map("false"::equalsIgnoreCase).orElse(false);
  }

  /** Set to anything but "0" or "false": for a variable used as a flag ({@code LOOPLAB_DEBUG=1}). */
  public boolean isSetAsFlag() {
    return raw().filter(v -> !v.equals("0") && !v.equalsIgnoreCase("false")).isPresent();
  }

  /** {@code -Dname=value}, for a JVM the kit starts. */
  public String jvmFlag(String value) {
    if (source != Source.PROPERTY) {
      throw new IllegalStateException(name + " is an environment variable, not a system property");
    }
    return "-D" + name + "=" + value;
  }

  /** How CONTRIBUTING's table shows it: one row. */
  public String tableRow() {
    String shown = source == Source.PROPERTY ? "`" + name + "`" : "`" + name + "` (variable)";
    return "| " + shown + " | " + byDefault + " | " + readBy + " | " + doc + " |";
  }
}
