package io.looplab.grader.internal.settings;

import java.util.List;

import static io.looplab.grader.internal.settings.Setting.Source.ENVIRONMENT;
import static io.looplab.grader.internal.settings.Setting.Source.PROPERTY;

/**
 * Every setting of the kit, in one place: the grading JVM's, the command line's, ./lab's and the self-test's. Code
 * reads a setting through its constant here, never by its name; CONTRIBUTING's "Settings" table is checked against
 * {@link #ALL} by the self-test (a new setting goes in both, with its default and a sentence).
 */
public final class Settings {

  private static final String GRADING_JVM = "grading JVM";
  private static final String CLI = "command line";
  private static final String LAB = "./lab";
  private static final String SELF_TEST = "self-test";

  // ---- the grading JVM's -----------------------------------------------------------------------------------------

  public static final Setting STALL_MS = new Setting("looplab.stall.ms", PROPERTY, "50", GRADING_JVM,
      "a task that keeps an event loop busy this many milliseconds without a break is a stall");
  public static final Setting STUCK_MS = new Setting("looplab.stuck.ms", PROPERTY, "1000", GRADING_JVM,
      "a loop still in a stalled task this many milliseconds after the task began is stuck for good: its test "
          + "stops waiting for it");
  public static final Setting DEBUG = new Setting("looplab.debug", PROPERTY, "false", GRADING_JVM,
      "true: stall detection off, for stepping through code in a debugger (`./lab check --debug` sets it); "
          + "blocking calls are still caught");
  public static final Setting DEBUG_VARIABLE = new Setting("LOOPLAB_DEBUG", ENVIRONMENT, "unset", GRADING_JVM,
      "anything but 0 or false: as `looplab.debug=true`");
  public static final Setting CONFINEMENT = new Setting("looplab.confinement", PROPERTY, "true", GRADING_JVM,
      "false: the confinement detector off (an exercise can pass it in its `exercise.json`'s `jvmOptions`)");
  public static final Setting TEST_TIMEOUT = new Setting("looplab.test.timeout", PROPERTY, "20 s", GRADING_JVM,
      "JUnit's limit for each test and lifecycle method, in JUnit's notation");
  public static final Setting CLOSE_LIMIT_SECONDS = new Setting("looplab.close.limit.seconds", PROPERTY, "5",
      GRADING_JVM, "how long the guard waits for a test's Vert.x to close (a ceiling, not a wait)");
  public static final Setting ONLY_TESTS = new Setting("looplab.only.tests", PROPERTY, "unset", GRADING_JVM,
      "set by the kit: a comma-separated list of test methods, the only ones that run");
  public static final Setting PREWARM = new Setting("looplab.prewarm", PROPERTY, "false", GRADING_JVM,
      "set by the kit for a JVM it starts ahead: warm Vert.x and JUnit up while waiting for `go`");
  public static final Setting ARCHIVED_CLASSES = new Setting("looplab.archived.classes", PROPERTY, "unset",
      GRADING_JVM, "set by the kit when the JVM maps its class archive: a file of the library classes to load from "
          + "it before the guard installs (`target/lab/class-archives`)");
  public static final Setting BLOCKHOUND_REWRITES = new Setting("looplab.blockhound.rewrites", PROPERTY, "unset",
      GRADING_JVM, "set by the kit beside its class archive: a file of BlockHound's class rewrites, made once, that "
          + "the guard's install hands back instead of rewriting those classes again");
  public static final Setting BLOCKHOUND_REWRITES_RECORD = new Setting("looplab.blockhound.rewrites.record",
      PROPERTY, "unset", GRADING_JVM, "set by the kit in the JVM that makes its class archive: where to write "
          + "BlockHound's class rewrites once it has warmed up");

  // ---- the command line's and ./lab's ----------------------------------------------------------------------------

  public static final Setting HOME = new Setting("looplab.home", PROPERTY, ".", CLI,
      "set by ./lab: the kit's folder");
  public static final Setting JAVA_HOME_FIRST = new Setting("LOOPLAB_JAVA_HOME", ENVIRONMENT, "unset", CLI,
      "a JDK looked at first for an exercise that needs a newer Java than the one running");
  public static final Setting JAVA_HOME = new Setting("JAVA_HOME", ENVIRONMENT, "unset", CLI + " and " + LAB,
      "the JDK ./lab runs on, looked at next for an exercise that needs a newer Java (then `/usr/lib/jvm`)");
  public static final Setting NO_COLOR = new Setting("NO_COLOR", ENVIRONMENT, "unset", CLI,
      "set: no colours (no-color.org)");
  public static final Setting CI = new Setting("CI", ENVIRONMENT, "unset", CLI,
      "set: no live progress line, only the lines that stay");
  public static final Setting COLUMNS = new Setting("COLUMNS", ENVIRONMENT, "unset", CLI + " and " + LAB,
      "on a terminal, its width: what the output is wrapped and clipped to (unset: `stty size` on /dev/tty, else 80)");
  public static final Setting ANSI = new Setting("picocli.ansi", PROPERTY, "unset", CLI,
      "true or false: colours forced on or off, before NO_COLOR and the terminal's own answer");
  public static final Setting NO_SERVER = new Setting("LOOPLAB_NO_SERVER", ENVIRONMENT, "unset", LAB,
      "set: `./lab check` and the quick commands never use the warm check server");

  // ---- the self-test's (`mvn -B verify -Dname=value`) ------------------------------------------------------------

  public static final Setting SELFTEST_PARALLEL = new Setting("looplab.selftest.parallel", PROPERTY,
      "the cores + 1", SELF_TEST, "how many gradings run at once");
  public static final Setting SELFTEST_ONLY = new Setting("looplab.selftest.only", PROPERTY, "unset", SELF_TEST,
      "a comma-separated list of exercise ids: only those are graded");
  public static final Setting SELFTEST_SHARED = new Setting("looplab.selftest.shared", PROPERTY, "true", SELF_TEST,
      "false: every variant is graded in a JVM of its own, as a learner's code is, instead of in shared JVMs");
  public static final Setting ORIGINALS_STRICT = new Setting("looplab.originals.strict", PROPERTY, "false",
      SELF_TEST, "true: every stub and graded test must be what `modules/originals.txt` records (CI sets it)");
  public static final Setting REQUIRE_CHROMIUM = new Setting("looplab.require.chromium", PROPERTY, "false",
      SELF_TEST, "true: the class report's and the live page's browser tests fail, not skip, without Chromium and "
          + "its driver (CI sets it)");
  public static final Setting REQUIRE_BWRAP = new Setting("looplab.require.bwrap", PROPERTY, "false", SELF_TEST,
      "true: the hostile matrix fails, not skips, without bubblewrap (CI sets it)");
  public static final Setting REQUIRE_POSTGRES = new Setting("looplab.require.postgres", PROPERTY, "false",
      SELF_TEST, "true: the session server's PostgreSQL tests fail, not skip, without PostgreSQL's server programs "
          + "(Debian's postgresql; CI sets it)");
  public static final Setting HANDOUT_VERIFY = new Setting("looplab.handout.verify", PROPERTY, "false", SELF_TEST,
      "true: also write a handout, clone it, and run `./lab grade` and `mvn -B verify` in the clone (CI's first "
          + "run sets it; minutes). The tests that need nothing of this kit (the grader's, the guard's and the session "
          + "server's modules, and the self-test classes marked `@RunsInTheHandoutClone`) then run in the clone only, and the clone's "
          + "reports must show them passed");

  /** Every setting, in the order of CONTRIBUTING's table. */
  public static final List<Setting> ALL = List.of(STALL_MS, STUCK_MS, DEBUG, DEBUG_VARIABLE, CONFINEMENT,
      TEST_TIMEOUT, CLOSE_LIMIT_SECONDS, ONLY_TESTS, PREWARM, ARCHIVED_CLASSES, BLOCKHOUND_REWRITES,
      BLOCKHOUND_REWRITES_RECORD, HOME, JAVA_HOME_FIRST, JAVA_HOME,
      NO_COLOR, CI, COLUMNS, ANSI, NO_SERVER, SELFTEST_PARALLEL, SELFTEST_ONLY, SELFTEST_SHARED, ORIGINALS_STRICT, REQUIRE_CHROMIUM,
      REQUIRE_BWRAP, REQUIRE_POSTGRES, HANDOUT_VERIFY);

  private Settings() {
  }
}
