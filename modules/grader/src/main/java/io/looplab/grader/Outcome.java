package io.looplab.grader;

import io.looplab.grader.nodes.NodeProcess;

import java.util.Objects;

/**
 * What an async call of the code under test ended with: a value, a failure, or nothing yet. Two outcomes are equal
 * when they hold the same value, or are both failures (whatever the failure), which is what a test compares; the
 * text is what a learner reads in a failure message.
 *
 * @param <T> the value's type
 */
public record Outcome<T>(T value, Throwable error) {

  public static <T> Outcome<T> of(T value) {
    return new Outcome<>(Objects.requireNonNull(value), null);
  }

  public static <T> Outcome<T> failed(Throwable error) {
    return new Outcome<>(null, Objects.requireNonNull(error));
  }

  /** The call has not answered (yet). */
  public static <T> Outcome<T> none() {
    return new Outcome<>(null, null);
  }

  public boolean isFailure() {
    return error != null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Outcome<?> other && Objects.equals(value, other.value) && isFailure() == other.isFailure();
  }

  @Override
  public int hashCode() {
    return Objects.hash(value, isFailure());
  }

  @Override
  public String toString() {
    if (error != null) {
      // A node's error already reads as the node put it; a local one gets its type, which is often the point.
      return "a failure (" + (error instanceof NodeProcess.NodeError ? "" : error.getClass().getSimpleName() + ": ")
          + error.getMessage() + ")";
    }
    return value == null ? "no answer yet" : String.valueOf(value);
  }
}
