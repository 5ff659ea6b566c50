package io.looplab.grader.races;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.shareddata.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The evidence helpers of race tests: fresh inputs, colliding keys, held lock names, pending timers. */
class RacesTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("Fresh copies are equal to the original and never the same object, also inside a JsonArray")
  void freshCopiesAreNewObjects() {
    String key = "jazz";
    assertEquals(key, Fresh.copyOf(key));
    assertNotSame(key, Fresh.copyOf(key));
    assertNotSame(Fresh.copyOf(key), Fresh.copyOf(key));
    JsonArray batch = new JsonArray().add(key).add(3);
    JsonArray copy = Fresh.copyOf(batch);
    assertEquals(batch, copy);
    assertNotSame(batch.getString(0), copy.getString(0));
  }

  @Test
  @DisplayName("colliding keys are distinct, with one hash code, one length and one first character")
  void collidingKeysCollide() {
    for (int n = 1; n <= 64; n++) {
      List<String> keys = CollidingKeys.withPrefix("gala-", n);
      assertEquals(n, new HashSet<>(keys).size());
      assertEquals(1, keys.stream().mapToInt(String::hashCode).distinct().count(), keys::toString);
      assertEquals(1, keys.stream().mapToInt(String::length).distinct().count(), keys::toString);
      assertEquals(1, keys.stream().map(k -> k.charAt(0)).distinct().count(), keys::toString);
      for (int stripes : new int[] {2, 16, 64, 1024}) {
        assertEquals(1, keys.stream().mapToInt(k -> Math.floorMod(k.hashCode(), stripes)).distinct().count());
      }
    }
    assertEquals(List.of("gala-AaAa", "gala-AaBB", "gala-BBAa"), CollidingKeys.withPrefix("gala-", 3));
    assertEquals(String.valueOf("gala-AaAa".hashCode()), CollidingKeys.sharedHashCode(CollidingKeys.withPrefix("gala-", 3)));
  }

  @Test
  @DisplayName("held local lock names are listed with their waiters, and forgotten once released")
  void heldLockNames() {
    Lock a = vertx.sharedData().getLocalLock("a").await();
    Lock b = vertx.sharedData().getLocalLock("b").await();
    vertx.sharedData().getLocalLockWithTimeout("a", 10_000);
    assertEquals(Map.of("a", 1, "b", 0), LocalLockNames.held(vertx));
    a.release();
    b.release();
    // the waiter got "a" now
    assertEquals(Map.of("a", 0), LocalLockNames.held(vertx));
  }

  @Test
  @DisplayName("pending timers of the code are listed while scheduled, and not once cancelled")
  void pendingTimers() {
    long timer = vertx.setTimer(60_000, id -> { });
    List<String> pending = PendingTimers.of(vertx);
    assertEquals(1, pending.size(), pending::toString);
    assertTrue(pending.get(0).contains("one-shot timer set in io.looplab.grader.races.RacesTest"), pending::toString);
    vertx.cancelTimer(timer);
    assertEquals(List.of(), PendingTimers.of(vertx));
  }

  static final class Counts {
    static final String NAME = "constant";
    static volatile long total;
    static final java.util.concurrent.atomic.AtomicLong atomic = new java.util.concurrent.atomic.AtomicLong();
    final java.util.Map<String, Long> pages = new java.util.HashMap<>();
  }

  @Test
  @DisplayName("state fields say what each field holds, without constants")
  void stateFields() {
    List<StateFields.StateField> fields = StateFields.of(Counts.class, List.of(new Counts()));
    assertEquals(List.of("total", "atomic", "pages"), fields.stream().map(StateFields.StateField::name).toList());
    assertEquals("the static volatile long field total of Counts", fields.get(0).describe());
    assertTrue(fields.get(0).isPrimitiveNumber());
    assertEquals("the static field atomic of Counts (an AtomicLong)", fields.get(1).describe());
    assertEquals("the field pages of Counts (a HashMap)", fields.get(2).describe());
    assertTrue(StateFields.holding(fields, java.util.HashMap.class).isPresent());
    assertEquals("pages", StateFields.holding(fields, java.util.Map.class).get().name());
  }
}
