package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import io.looplab.grader.internal.settings.Settings;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

/**
 * A self-test class that grades a kit of its own (the hostile kit's 01-smoke, copied to a temporary folder), never
 * this kit's exercises or solutions, so it proves the same thing in this kit and in a learners' handout. When CI's
 * first run also verifies a fresh clone of the handout ({@code -Dlooplab.handout.verify=true}), that clone's
 * {@code mvn -B verify} runs these classes on the same code and the same JDK; running them here as well would grade
 * the same fixtures twice (minutes of a 2-core machine). So here they are skipped, aloud, and
 * {@link HandoutFromAFreshClone} fails unless the clone's verify ran every one of them, with no failure. Without the
 * handout's verify (a developer's run, CI's JDK 25 run) they run here as usual.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RunsInTheHandoutClone.Condition.class)
@interface RunsInTheHandoutClone {

  /** The classes so marked: HandoutFromAFreshClone checks the clone's log for each. RunsInTheHandoutCloneTest checks that it is. */
  List<Class<?>> CLASSES = List.of(CheckServerTest.class, WatchTest.class, NotGradedTest.class,
      HostileSubmissionTest.class, ClassReportTest.class, SharedJvmTest.class);

  final class Condition implements ExecutionCondition {

    /** Whether this run leaves them to the handout's clone: the handout is verified, and this kit is not it. */
    static boolean leftToTheClone() {
      return Settings.HANDOUT_VERIFY.isTrue() && Kit.locate().hasSolutions();
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (!leftToTheClone()) {
        return ConditionEvaluationResult.enabled("no handout clone runs it in this build");
      }
      String why = "runs in the handout's fresh clone instead (HandoutFromAFreshClone): it grades a kit of its own, "
          + "the same there as here";
      if (context.getTestMethod().isEmpty()) {
        System.out.println("[self-test] " + context.getDisplayName() + " " + why);
      }
      return ConditionEvaluationResult.disabled(why);
    }
  }
}
