package io.looplab.guard;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.util.ArrayList;
import java.util.List;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs one test class, as a project's build would, in the JVM it is started in, and prints one line per test:
 * {@code corpus: passed NAME} or {@code corpus: failed NAME: MESSAGE} (the message on one line), then the JVM's
 * CPU time ({@code corpus: cpu-ms N}) and {@code corpus: end}. {@link ColdRun} starts it in a fresh JVM for each
 * case, so that every case runs cold.
 */
public final class RunOneClass {

  static final String PREFIX = "corpus: ";

  private RunOneClass() {
  }

  public static void main(String[] args) {
    List<String> lines = new ArrayList<>();
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(args[0]))
        .configurationParameter("junit.jupiter.extensions.store.close.autocloseable.enabled", "false").build();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(request, new TestExecutionListener() {
      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (id.isTest() || result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
          lines.add(result.getStatus() == TestExecutionResult.Status.SUCCESSFUL ? "passed " + id.getDisplayName()
              : "failed " + id.getDisplayName() + ": " + result.getThrowable().map(RunOneClass::oneLine)
                  .orElse(result.getStatus().toString()));
        }
      }
    });
    for (String line : lines) {
      System.out.println(PREFIX + line);
    }
    java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      System.out.println(PREFIX + "cpu-ms " + hotspot.getProcessCpuTime() / 1_000_000);
    }
    System.out.println(PREFIX + "end");
    System.out.flush();
    // A case may leave non-daemon threads (a Vert.x it never closed): the verdict is printed, so end here.
    Runtime.getRuntime().halt(0);
  }

  private static String oneLine(Throwable t) {
    return (t.getClass().getName() + ": " + t.getMessage()).replace('\n', ' ').replace('\r', ' ');
  }
}
