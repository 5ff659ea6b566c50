package io.looplab.grader.internal.runner;

import io.looplab.grader.internal.settings.Settings;

import io.looplab.grader.internal.guard.EventLoopGuard;
import io.looplab.grader.internal.guard.StillPending;
import io.looplab.grader.internal.guard.Whereabouts;
import io.looplab.grader.internal.scoring.ScoringListener;
import io.looplab.grader.internal.scoring.VerdictChannel;
import io.looplab.grader.internal.scoring.VerdictFormat;
import io.looplab.grader.testkit.WarmUp;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.MethodFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

/**
 * The entry point of the JVM that grades one exercise. The lab CLI starts it with the compiled tests, the
 * learner's classes and the libraries on the class path; it runs every test in the test folder and hands the scored
 * report to the kit, signed with the key the kit sends first (see {@link VerdictFormat}); only a plan listing
 * ({@code --plan-only}), which runs none of the learner's code, writes it to the given file. It exits explicitly, so that a thread the learner's code left running cannot
 * keep it alive.
 *
 * <p>Its arguments, flags and handshake are defined in {@link GradingJvm}:
 * {@code GradingMain [--plan-only | --wait-for-go] <test-classes-dir> <report.json> <exercise-id> <title>}.
 * With {@code --plan-only} the tests are only discovered, and the report lists them with their points, unrun. With
 * {@code --wait-for-go} the JVM first gets ready (installs the guard, loads JUnit), then waits for a line on its
 * standard input: {@code go} to run the tests, anything else to exit. The grader starts it that way and compiles
 * the code meanwhile, so the two costs overlap. With {@code --serve} it grades job after job (the kit's self-test:
 * see {@link ServingLoop}).
 */
public final class GradingMain {

  /** JUnit 5.14 warns once per test that vertx-junit5's ScopedObject is not AutoCloseable; it is harmless noise. */
  private static final Logger JUNIT_CONTEXT_LOG =
      Logger.getLogger("org.junit.jupiter.engine.descriptor.AbstractExtensionContext");

  /** System property: a comma-separated list of test method names; when set, only those tests run. */
  public static final String ONLY_TESTS = Settings.ONLY_TESTS.name();

  /** How often the kit's standard input is looked at during the tests, for {@link GradingJvm#WHERE}. */
  private static final long WHERE_POLL_MILLIS = 50;

  private GradingMain() {
  }

  public static void main(String[] args) {
    JUNIT_CONTEXT_LOG.setLevel(Level.SEVERE);
    GradingJvm.Arguments arguments;
    try {
      arguments = GradingJvm.Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(GradingJvm.Arguments.usage() + " (" + e.getMessage() + ")");
      System.exit(2);
      return;
    }
    BufferedReader kit = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    if (arguments.mode() == GradingJvm.Mode.WAIT_FOR_GO || arguments.mode() == GradingJvm.Mode.SERVE) {
      // First, before any graded class is loaded: the key that signs the verdict (see VerdictFormat).
      Optional<byte[]> key = readKey(kit);
      if (key.isEmpty()) {
        System.err.println("[looplab] no key on the first line of standard input: this JVM is started by the kit");
        System.exit(2);
      }
      VerdictChannel.open(key.get());
    }
    // Before JUnit and the guard load anything: see ArchivedClasses.
    ArchivedClasses.loadAhead();
    Launcher launcher = LauncherFactory.create();
    if (arguments.mode() == GradingJvm.Mode.WAIT_FOR_GO) {
      EventLoopGuard.warmUp();
      if (Settings.PREWARM.isTrue()) {
        WarmUp.aheadOfTests();
        JUnitWarmUp.run(launcher);
      }
      if (!waitForGo(kit)) {
        System.exit(endWithoutGrading());
      }
      answerWhereAsked(kit, Thread.currentThread(), arguments.reportFile());
    }
    if (arguments.mode() == GradingJvm.Mode.SERVE) {
      EventLoopGuard.warmUp();
      new ServingLoop(launcher, arguments, kit).serve();
      System.exit(0);
    }
    LauncherDiscoveryRequest request = request(arguments, Settings.ONLY_TESTS.raw().orElse(""));
    if (arguments.mode() == GradingJvm.Mode.PLAN_ONLY) {
      ScoringListener listing = new ScoringListener();
      TestPlan plan = launcher.discover(request);
      listing.testPlanExecutionStarted(plan);
      listing.testPlanExecutionFinished(plan);
    } else {
      launcher.execute(request);
    }
    System.exit(0);
  }

  /**
   * Every test class in the test folder, or only the methods named in {@code only} (comma-separated), scored into
   * the report file. Classes are loaded by the thread's context class loader, as JUnit does by default.
   */
  static LauncherDiscoveryRequest request(GradingJvm.Arguments arguments, String only) {
    String testTimeout = Settings.TEST_TIMEOUT.value();
    LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request();
    if (!only.isBlank()) {
      // Matched against the method's fully qualified name, without its parameters.
      builder.filters(MethodFilter.includeMethodNamePatterns(Arrays.stream(only.split(","))
          .map(name -> ".*[.#]" + Pattern.quote(name.trim())).toList()));
    }
    return builder
        .selectors(selectClasspathRoots(Set.of(arguments.testClasses())))
        .configurationParameter(ScoringListener.REPORT_FILE, arguments.reportFile().toString())
        .configurationParameter(ScoringListener.EXERCISE_ID, arguments.exerciseId())
        .configurationParameter(ScoringListener.EXERCISE_TITLE, arguments.title())
        // One hung test costs its own points, not the whole exercise.
        .configurationParameter("junit.jupiter.execution.timeout.testable.method.default", testTimeout)
        .configurationParameter("junit.jupiter.execution.timeout.lifecycle.method.default", testTimeout)
        .build();
  }

  /**
   * Listens to the kit for the rest of the grading: at the time limit it asks {@link GradingJvm#WHERE}, and the
   * answer (where {@code tests}, the thread that runs the tests, is) goes to the kit with the verdict, for {@code job}.
   */
  private static void answerWhereAsked(BufferedReader kit, Thread tests, Path job) {
    Thread listener = new Thread(() -> {
      try {
        while (true) {
          // Polled, not read: a thread blocked in a read of standard input is in native code, and System.exit
          // then waits 300 ms for it (HotSpot's VM_Exit), on every grading. A sleeping thread costs nothing.
          while (!kit.ready()) {
            Thread.sleep(WHERE_POLL_MILLIS);
          }
          String line = kit.readLine();
          if (line == null) {
            return;
          }
          if (GradingJvm.WHERE.equals(line)) {
            VerdictChannel.sendWhere(job, where(tests), Whereabouts.inLearnersCode(tests));
          }
        }
      } catch (IOException | RuntimeException e) {
        // the kit is gone: the report then says less
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "looplab-kit-listener");
    listener.setDaemon(true);
    listener.start();
  }

  /** Where the tests' thread is, then what was still pending (which request, which lock), or "" for neither. */
  private static String where(Thread tests) {
    String where = Whereabouts.of(tests).orElse("");
    String pending = StillPending.sentence();
    if (pending.isEmpty()) {
      return where;
    }
    return (where.isEmpty() ? "in neither your code nor the test's" : where) + (where.endsWith("?") ? "" : ".")
        + pending;
  }

  /**
   * A JVM told to end before it grades (its input ended instead of "go"): the kit's class-archive maker, a grading
   * whose code did not compile, a spare no longer needed. A warm-up-only JVM says what became of BlockHound's
   * remembered rewrites, and the archive's maker writes them; failing that is its exit status 1.
   */
  private static int endWithoutGrading() {
    try {
      Optional<String> rewrites = EventLoopGuard.afterWarmUp();
      if (Settings.PREWARM.isTrue()) {
        rewrites.ifPresent(line -> System.out.println("[looplab] " + line));
      }
      return 0;
    } catch (IOException e) {
      System.err.println("[looplab] BlockHound's rewrites could not be written: " + e);
      return 1;
    }
  }

  private static Optional<byte[]> readKey(BufferedReader in) {
    try {
      return VerdictFormat.parseKeyLine(in.readLine());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static boolean waitForGo(BufferedReader in) {
    try {
      boolean go = GradingJvm.GO.equals(in.readLine());
      // The tests get an empty standard input, as they would without the handshake.
      System.setIn(new ByteArrayInputStream(new byte[0]));
      return go;
    } catch (IOException e) {
      return false;
    }
  }
}
