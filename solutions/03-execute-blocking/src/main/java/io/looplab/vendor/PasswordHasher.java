package io.looplab.vendor;

/**
 * Turns passwords into hashes that are safe to store, and checks a password against a stored hash. Given to you as a
 * library: you call it, you do not change it.
 *
 * <p>Every call is slow CPU work by design (about 100 ms for {@link Pbkdf2PasswordHasher}): call it where a thread
 * may be busy that long, never on an event loop. Implementations are thread-safe.
 */
public interface PasswordHasher {

  /**
   * Hashes {@code password} with a fresh random salt, and returns a self-describing string to store.
   *
   * @throws IllegalArgumentException if the password is null or empty
   */
  String hash(String password);

  /** True when {@code stored}, from {@link #hash}, is a hash of {@code password}. As slow as {@link #hash}. */
  boolean verify(String password, String stored);
}
