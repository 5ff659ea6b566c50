package io.looplab.perkey;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;

/** One booking the test made, and how it ended. */
final class Booking {

  final String label;
  final CompletableFuture<Integer> result = new CompletableFuture<>();
  volatile RuntimeException thrown;

  Booking(String label) {
    this.label = label;
  }

  boolean isDone() {
    return result.isDone();
  }

  /** The seat booked, or null while waiting or after a failure. */
  Integer seat() {
    return result.isDone() && !result.isCompletedExceptionally() ? result.join() : null;
  }

  Throwable failure() {
    if (!result.isCompletedExceptionally()) {
      return null;
    }
    try {
      result.join();
      return null;
    } catch (CompletionException e) {
      return e.getCause();
    }
  }

  /** What happened to it, as a sentence's verb phrase: "booked seat 2", "is still waiting", ... */
  String outcome() {
    if (thrown != null) {
      return "threw " + thrown + " from book() instead of returning a failed future";
    }
    if (!result.isDone()) {
      return "is still waiting";
    }
    Integer seat = seat();
    return seat != null ? "booked seat " + seat : "failed with " + failure();
  }

  /** "booking #1 booked seat 1; booking #2 is still waiting": what every booking did so far, for a message. */
  static String outcomes(List<Booking> bookings) {
    Map<String, String> all = new LinkedHashMap<>();
    bookings.forEach(b -> all.put(b.label, b.outcome()));
    return all.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining("; "));
  }

  /** Whether {@code error} or one of its causes is a {@code type}. */
  static boolean isA(Throwable error, Class<? extends Throwable> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** The messages of {@code error} and its causes, joined: a wrapped failure still says what went wrong. */
  static String causes(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      text.append(t).append(" / ");
    }
    return text.toString();
  }
}
