package io.looplab.grader.sync.callsite;

import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.internal.guard.CountAsLearners;
import io.looplab.grader.sync.CallSite;
import io.looplab.grader.sync.GatedDependency;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A gated call records the learner's method and line that made it, as the guard decides "the learner's code": this
 * test's package is watched, {@link LearnerCode} is declared the learner's (it is compiled with this test, which an
 * exercise's learner code never is), and this class and its nested fake are not.
 */
@GradedVertxTest
@CountAsLearners(LearnerCode.class)
class CallSiteTest {

  /** A fake nested in the test, as the exercises' fakes are: its frames are never the learner's. */
  static final class NestedFake {
    final GatedDependency<String, Integer> gated = new GatedDependency<>();

    io.vertx.core.Future<Integer> call(String key) {
      return gated.apply(key);
    }
  }

  @Test
  @DisplayName("each call records the first frame of the learner's code: the method, or the lambda's method, and its line")
  void recordsTheLearnersFrame(Vertx vertx) throws Exception {
    NestedFake fake = new NestedFake();
    LearnerCode learner = new LearnerCode(fake::call);
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.runOnContext(v -> {
      learner.direct("a");
      learner.chained("b");
      done.complete(null);
    });
    done.get(5, TimeUnit.SECONDS);

    assertEquals(Optional.of("direct() at LearnerCode.java:20"), fake.gated.callSite(0));
    assertEquals(Optional.of("a lambda in chained() at LearnerCode.java:24"), fake.gated.callSite(1));
    assertEquals(fake.gated.callSite(1), fake.gated.call(1).callSite());
    assertEquals(List.of("direct() at LearnerCode.java:20", "a lambda in chained() at LearnerCode.java:24"),
        fake.gated.callSites());
    fake.gated.calledSoFar().forEach(g -> g.open(1));
  }

  @Test
  @DisplayName("a call made by the test itself has no learner's call site")
  void testCallsHaveNone(Vertx vertx) throws Exception {
    NestedFake fake = new NestedFake();
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.runOnContext(v -> {
      fake.call("x");
      done.complete(null);
    });
    done.get(5, TimeUnit.SECONDS);
    assertEquals(Optional.empty(), fake.gated.callSite(0));
    assertEquals(Optional.empty(), CallSite.ofCurrentCall());
    fake.gated.call(0).open(0);
  }

  @Test
  @DisplayName("a fixture in a file of its own is the test's code, not the learner's, whatever its name")
  void fixturesInTheirOwnFilesAreNotTheLearners(Vertx vertx) throws Exception {
    StandaloneFake fake = new StandaloneFake();
    LearnerCode learner = new LearnerCode(fake::call);
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.runOnContext(v -> {
      fake.call("by the test");
      learner.direct("by the learner");
      done.complete(null);
    });
    done.get(5, TimeUnit.SECONDS);
    assertEquals(Optional.empty(), fake.gated.callSite(0));
    assertEquals(Optional.of("direct() at LearnerCode.java:20"), fake.gated.callSite(1));
    fake.gated.calledSoFar().forEach(g -> g.open(1));
  }

  @Test
  @DisplayName("the path of a call lists every line of the learner's code it went through, nearest first, and none of the test's")
  void pathListsEveryLearnerFrame(Vertx vertx) throws Exception {
    List<Optional<String>> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
    LearnerCode learner = new LearnerCode(key -> {
      paths.add(CallSite.pathOf(new Throwable().getStackTrace()));
      return io.vertx.core.Future.succeededFuture(1);
    });
    CompletableFuture<Void> done = new CompletableFuture<>();
    vertx.runOnContext(v -> {
      learner.direct("a");
      learner.chained("b");
      learner.viaHelper("c");
      paths.add(CallSite.pathOf(new Throwable().getStackTrace()));
      done.complete(null);
    });
    done.get(5, TimeUnit.SECONDS);
    assertEquals(List.of(Optional.of("direct() at LearnerCode.java:20"),
        Optional.of("a lambda in chained() at LearnerCode.java:24"),
        Optional.of("helper() at LearnerCode.java:32, called from viaHelper() at LearnerCode.java:28"),
        Optional.empty()), paths);
  }

  @Test
  @DisplayName("a long path names the three nearest lines of the learner's, and says that more lie further down")
  void longPathsNameTheNearestThree() {
    StackTraceElement[] stack = new StackTraceElement[6];
    for (int i = 0; i < stack.length; i++) {
      stack[i] = new StackTraceElement(LearnerCode.class.getName(), "step" + i, "LearnerCode.java", 10 + i);
    }
    assertEquals(Optional.of("step0() at LearnerCode.java:10, called from step1() at LearnerCode.java:11, called "
        + "from step2() at LearnerCode.java:12, and further down"), CallSite.pathOf(stack));
  }
}
