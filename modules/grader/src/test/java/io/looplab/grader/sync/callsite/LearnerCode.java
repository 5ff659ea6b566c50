package io.looplab.grader.sync.callsite;

import io.vertx.core.Future;

import java.util.function.Function;

/**
 * Stands for a learner's class: {@code CallSiteTest} declares it so with {@code @CountAsLearners}, and the guard
 * counts its frames as the learner's. It calls a dependency directly, and from a lambda.
 */
public class LearnerCode {

  private final Function<String, Future<Integer>> dependency;

  public LearnerCode(Function<String, Future<Integer>> dependency) {
    this.dependency = dependency;
  }

  public Future<Integer> direct(String key) {
    return dependency.apply(key); // line 20: the direct call
  }

  public Future<Integer> chained(String key) {
    return Future.succeededFuture(key).compose(k -> dependency.apply(k)); // line 24: the call from a lambda
  }

  public Future<Integer> viaHelper(String key) {
    return helper(key); // line 28: a call to a method of its own
  }

  private Future<Integer> helper(String key) {
    return dependency.apply(key); // line 32: which makes the call
  }
}
