package io.looplab.blocking;

/**
 * Pure CPU work, on purpose the slow way: trial division. Counting the primes below 2,000,000 takes a few hundred
 * milliseconds even on a warm JVM. Nothing to change here: the question is which thread runs it.
 */
public final class Primes {

  private Primes() {
  }

  /** How many primes are smaller than {@code n}. */
  public static int countBelow(int n) {
    int count = 0;
    for (int candidate = 2; candidate < n; candidate++) {
      if (isPrime(candidate)) {
        count++;
      }
    }
    return count;
  }

  static boolean isPrime(int n) {
    for (int divisor = 2; (long) divisor * divisor <= n; divisor++) {
      if (n % divisor == 0) {
        return false;
      }
    }
    return true;
  }
}
