package corpus.entropy_seed;

import java.security.SecureRandom;

public final class Service {
  public static byte[] work() {
    return new SecureRandom().generateSeed(8); // blocks here
  }
}
