package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;

/**
 * JUnit XML as Maven Surefire writes it, one {@code <testsuite>} per exercise inside {@code <testsuites>}: each
 * graded test is a {@code <testcase>} named after its method, with a {@code <failure>}, {@code <error>} or
 * {@code <skipped>} that carries the grader's message. Points go into each suite's properties. Surefire's XSD requires
 * a {@code time} on every {@code <testcase>}; the grader does not time tests one by one (a test's time would mostly
 * be its JVM's start and the guard's probes), so each says 0, and CI servers read that as "not measured".
 */
final class JUnitXml {

  private JUnitXml() {
  }

  static String render(Scoreboard board, ExportOptions options) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    Counts all = new Counts();
    StringBuilder suites = new StringBuilder();
    for (ExerciseResult exercise : board.exercises()) {
      Counts counts = new Counts();
      StringBuilder cases = new StringBuilder();
      for (TestResult test : exercise.tests()) {
        counts.add(test.status());
        cases.append(testcase(test));
      }
      all.addAll(counts);
      suites.append("  <testsuite name=\"").append(escape(exercise.id())).append('"').append(counts.attributes())
          .append(">\n    <properties>\n")
          .append(property("title", exercise.title()))
          .append(property("points", Integer.toString(exercise.points())))
          .append(property("max", Integer.toString(exercise.max())))
          .append(property("status", exercise.status().json()))
          .append(exercise.message() == null ? "" : property("message", exercise.message()))
          .append("    </properties>\n").append(cases).append("  </testsuite>\n");
    }
    xml.append("<testsuites name=\"Loop Lab: ").append(escape(board.target())).append('"').append(all.attributes())
        .append(">\n").append(suites).append("</testsuites>\n");
    return xml.toString();
  }

  private static String testcase(TestResult test) {
    TestName name = TestName.of(test);
    String open = "    <testcase name=\"" + escape(name.method()) + "\" classname=\"" + escape(name.className())
        + "\" time=\"0\"";
    String message = test.message() == null ? "" : test.message();
    String firstLine = message.lines().findFirst().orElse("");
    return switch (test.status()) {
      case PASSED -> open + "/>\n";
      case FAILED -> open + ">\n      <failure message=\"" + escape(firstLine) + "\" type=\"failed\">" + escape(message)
          + "</failure>\n    </testcase>\n";
      case SKIPPED -> open + ">\n      <skipped message=\"" + escape(firstLine) + "\"/>\n    </testcase>\n";
      default -> open + ">\n      <error message=\"" + escape(firstLine) + "\" type=\"" + test.status().json() + "\">"
          + escape(message) + "</error>\n    </testcase>\n";
    };
  }

  private static String property(String name, String value) {
    return "      <property name=\"" + name + "\" value=\"" + escape(value) + "\"/>\n";
  }

  /** XML's five special characters, and any control character XML 1.0 cannot carry, as a visible replacement. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        case '\n' -> out.append("&#10;");
        case '\t', '\r' -> out.append("&#").append(c).append(';');
        default -> {
          if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) {
            out.append('\uFFFD');
          } else {
            out.appendCodePoint(c);
          }
        }
      }
    });
    return out.toString();
  }

  /** Surefire's four counters for a suite. */
  private static final class Counts {
    int tests;
    int failures;
    int errors;
    int skipped;

    void add(TestStatus status) {
      tests++;
      switch (status) {
        case PASSED -> { }
        case FAILED -> failures++;
        case SKIPPED -> skipped++;
        default -> errors++;
      }
    }

    void addAll(Counts other) {
      tests += other.tests;
      failures += other.failures;
      errors += other.errors;
      skipped += other.skipped;
    }

    String attributes() {
      return " tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"" + errors + "\" skipped=\"" + skipped
          + "\"";
    }
  }
}
