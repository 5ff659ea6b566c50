package io.looplab.cli.session;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The address learners on the room's network reach this machine at: an IPv4 address of an interface that is up,
 * not the loopback, and not a container's or a VM's bridge; a private one (192.168/16, 10/8, 172.16/12) first.
 */
public final class LanAddress {

  private LanAddress() {
  }

  public static Optional<String> ofThisMachine() {
    try {
      return choose(Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
          .filter(LanAddress::usable)
          .flatMap(i -> Collections.list(i.getInetAddresses()).stream()).toList());
    } catch (SocketException e) {
      return Optional.empty();
    }
  }

  /** The best of {@code addresses} for learners to type, or empty when none is an IPv4 address off the loopback. */
  static Optional<String> choose(List<InetAddress> addresses) {
    return addresses.stream().filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
        .min(Comparator.comparing(a -> a.isSiteLocalAddress() ? 0 : 1)).map(InetAddress::getHostAddress);
  }

  private static boolean usable(NetworkInterface i) {
    try {
      String name = i.getName();
      boolean bridge = name.startsWith("docker") || name.startsWith("br-") || name.startsWith("veth")
          || name.startsWith("virbr") || name.startsWith("vboxnet") || name.startsWith("vmnet");
      return i.isUp() && !i.isLoopback() && !bridge;
    } catch (SocketException e) {
      return false;
    }
  }
}
