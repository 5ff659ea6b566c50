package io.looplab.singleowner;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The stock counts: a plain {@link HashMap}, not thread-safe, as most state is. It is safe only while one thread at
 * a time, always the same, touches it: the single owner's. Given code: do not change it. Besides the counts it keeps
 * evidence for the graded tests: every ledger created, and the names of the threads that touched each one.
 */
public final class StockLedger {

  private static final List<StockLedger> CREATED = new CopyOnWriteArrayList<>();

  private final Map<String, Integer> left = new HashMap<>();
  private final Set<String> touchedBy = ConcurrentHashMap.newKeySet();

  /** A ledger holding {@code initial} units of each item. */
  public StockLedger(Map<String, Integer> initial) {
    left.putAll(initial);
    CREATED.add(this);
  }

  /** How many units of {@code item} are left (0 for an item the ledger never had). */
  public int left(String item) {
    touched();
    return left.getOrDefault(item, 0);
  }

  /** Takes one unit of {@code item}: true if there was one, false (and nothing changes) when none is left. */
  public boolean tryReserve(String item) {
    touched();
    int now = left.getOrDefault(item, 0);
    if (now <= 0) {
      return false;
    }
    left.put(item, now - 1);
    return true;
  }

  /** The names of the threads that have touched this ledger. Evidence for the tests. */
  public Set<String> touchedBy() {
    return Set.copyOf(touchedBy);
  }

  /** Every ledger created since {@link #forgetAll}, in order. Evidence for the tests. */
  public static List<StockLedger> created() {
    return List.copyOf(CREATED);
  }

  /** Forgets the ledgers created so far. For the tests, before each one. */
  public static void forgetAll() {
    CREATED.clear();
  }

  private void touched() {
    touchedBy.add(Thread.currentThread().getName());
  }
}
