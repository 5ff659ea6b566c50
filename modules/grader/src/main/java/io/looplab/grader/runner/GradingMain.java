package io.looplab.grader.runner;

import io.looplab.grader.guard.EventLoopGuard;
import io.looplab.grader.scoring.ScoringListener;
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
import java.util.Set;
import java.util.regex.Pattern;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;

/**
 * The entry point of the JVM that grades one exercise. The lab CLI starts it with the compiled tests, the
 * learner's classes and the libraries on the class path; it runs every test in the test folder and leaves the
 * scored report in the given file. It exits explicitly, so that a thread the learner's code left running cannot
 * keep it alive.
 *
 * <p>Usage: {@code GradingMain [--plan-only | --wait-for-go] <test-classes-dir> <report.json> <exercise-id> <title>}.
 * With {@code --plan-only} the tests are only discovered, and the report lists them with their points, unrun. With
 * {@code --wait-for-go} the JVM first gets ready (installs the guard, loads JUnit), then waits for a line on its
 * standard input: {@code go} to run the tests, anything else to exit. The grader starts it that way and compiles
 * the code meanwhile, so the two costs overlap.
 */
public final class GradingMain {

  /** JUnit 5.14 warns once per test that vertx-junit5's ScopedObject is not AutoCloseable; it is harmless noise. */
  private static final Logger JUNIT_CONTEXT_LOG =
      Logger.getLogger("org.junit.jupiter.engine.descriptor.AbstractExtensionContext");

  /** System property: a comma-separated list of test method names; when set, only those tests run. */
  public static final String ONLY_TESTS = "looplab.only.tests";

  private GradingMain() {
  }

  public static void main(String[] args) {
    JUNIT_CONTEXT_LOG.setLevel(Level.SEVERE);
    String mode = args.length > 0 && args[0].startsWith("--") ? args[0] : "";
    if (!mode.isEmpty()) {
      args = Arrays.copyOfRange(args, 1, args.length);
    }
    boolean planOnly = mode.equals("--plan-only");
    if (args.length != 4 || !(mode.isEmpty() || planOnly || mode.equals("--wait-for-go"))) {
      System.err.println("usage: GradingMain [--plan-only | --wait-for-go] <test-classes-dir> <report.json> <exercise-id> <title>");
      System.exit(2);
    }
    Launcher launcher = LauncherFactory.create();
    if (mode.equals("--wait-for-go")) {
      EventLoopGuard.warmUp();
      if (!waitForGo()) {
        System.exit(0);
      }
    }
    String testTimeout = System.getProperty("looplab.test.timeout", "20 s");
    LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request();
    String only = System.getProperty(ONLY_TESTS, "");
    if (!only.isBlank()) {
      // Matched against the method's fully qualified name, without its parameters.
      builder.filters(MethodFilter.includeMethodNamePatterns(Arrays.stream(only.split(","))
          .map(name -> ".*[.#]" + Pattern.quote(name.trim())).toList()));
    }
    LauncherDiscoveryRequest request = builder
        .selectors(selectClasspathRoots(Set.of(Path.of(args[0]))))
        .configurationParameter(ScoringListener.REPORT_FILE, args[1])
        .configurationParameter(ScoringListener.EXERCISE_ID, args[2])
        .configurationParameter(ScoringListener.EXERCISE_TITLE, args[3])
        // One hung test costs its own points, not the whole exercise.
        .configurationParameter("junit.jupiter.execution.timeout.testable.method.default", testTimeout)
        .configurationParameter("junit.jupiter.execution.timeout.lifecycle.method.default", testTimeout)
        .build();
    if (planOnly) {
      ScoringListener listing = new ScoringListener();
      TestPlan plan = launcher.discover(request);
      listing.testPlanExecutionStarted(plan);
      listing.testPlanExecutionFinished(plan);
    } else {
      launcher.execute(request);
    }
    System.exit(0);
  }

  private static boolean waitForGo() {
    try {
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      boolean go = "go".equals(in.readLine());
      // The tests get an empty standard input, as they would without the handshake.
      System.setIn(new ByteArrayInputStream(new byte[0]));
      return go;
    } catch (IOException e) {
      return false;
    }
  }
}
