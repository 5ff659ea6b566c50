package io.looplab.smoke;

import java.net.NetworkInterface;
import java.util.stream.Collectors;

/** Adds correctly, and reports which network interfaces it can see (it connects nowhere). */
public class Adder {
  public static int add(int a, int b) {
    try {
      System.out.println("INTERFACES: " + NetworkInterface.networkInterfaces().map(NetworkInterface::getName)
          .sorted().collect(Collectors.joining(",")));
    } catch (Exception e) {
      System.out.println("INTERFACES: failed: " + e);
    }
    return a + b;
  }

  public static void handler() { }
}
