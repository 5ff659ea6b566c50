package corpus.dns_lookup;

import java.net.InetAddress;
import java.net.UnknownHostException;

public final class Service {
  public static int work() {
    try {
      return InetAddress.getByName("corpus-" + System.nanoTime() + ".invalid").hashCode(); // blocks here
    } catch (UnknownHostException e) {
      return 0;
    }
  }
}
