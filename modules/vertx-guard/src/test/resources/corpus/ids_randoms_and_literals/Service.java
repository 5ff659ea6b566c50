package corpus.ids_randoms_and_literals;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

public final class Service {
  private static final ConcurrentHashMap<String, byte[]> TOKENS = new ConcurrentHashMap<>();

  public static int work() throws Exception {
    byte[] token = new byte[32];
    new SecureRandom().nextBytes(token);
    TOKENS.put(UUID.randomUUID().toString(), token);
    return InetAddress.getByName("127.0.0.1").hashCode() + TOKENS.size();
  }
}
