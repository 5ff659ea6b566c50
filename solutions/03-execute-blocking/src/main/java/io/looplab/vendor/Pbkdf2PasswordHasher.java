package io.looplab.vendor;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Password hashing with PBKDF2-HMAC-SHA256, given to you as a library: you call it, you do not change it.
 *
 * <p>It is slow on purpose. Each call runs the hash function hundreds of thousands of times (about 100 ms of pure CPU
 * on a workshop laptop), so that someone who steals the hashes needs years to guess the passwords. Thread-safe: any
 * number of threads may call it at once, and each call keeps one core busy until it returns.
 */
public final class Pbkdf2PasswordHasher implements PasswordHasher {

  /** About 100 ms per hash on the machine the kit was written on; OWASP asks for more in production. */
  public static final int DEFAULT_ITERATIONS = 350_000;

  private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
  private static final String PREFIX = "pbkdf2-sha256";
  private static final int SALT_BYTES = 16;
  private static final int KEY_BITS = 256;

  private final int iterations;
  private final SecureRandom random;

  public Pbkdf2PasswordHasher() {
    this(DEFAULT_ITERATIONS);
  }

  public Pbkdf2PasswordHasher(int iterations) {
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be positive: " + iterations);
    }
    this.iterations = iterations;
    try {
      // A DRBG seeds itself once, here, from the operating system; later salts need no more reads from it.
      this.random = SecureRandom.getInstance("DRBG");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no DRBG SecureRandom", e);
    }
    random.nextBytes(new byte[SALT_BYTES]);
  }

  /** {@inheritDoc} The result reads {@code pbkdf2-sha256$<iterations>$<salt>$<hash>}. */
  @Override
  public String hash(String password) {
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("the password must not be empty");
    }
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
    return PREFIX + "$" + iterations + "$" + b64.encodeToString(salt) + "$"
        + b64.encodeToString(derive(password, salt, iterations));
  }

  @Override
  public boolean verify(String password, String stored) {
    String[] parts = stored == null ? new String[0] : stored.split("\\$");
    if (parts.length != 4 || !parts[0].equals(PREFIX) || password == null || password.isEmpty()) {
      return false;
    }
    try {
      Base64.Decoder b64 = Base64.getDecoder();
      byte[] expected = b64.decode(parts[3]);
      byte[] actual = derive(password, b64.decode(parts[2]), Integer.parseInt(parts[1]));
      return MessageDigest.isEqual(expected, actual);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static byte[] derive(String password, byte[] salt, int iterations) {
    PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, KEY_BITS);
    try {
      return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(ALGORITHM + " is not available", e);
    } finally {
      spec.clearPassword();
    }
  }
}
