package io.looplab.smoke;

import java.nio.file.Files;
import java.nio.file.Path;

/** Adds correctly, and tries to leave a file in the home folder of whoever grades it. */
public class Adder {
  public static final String PROBE = "looplab-sandbox-probe.txt";

  public static int add(int a, int b) {
    Path probe = Path.of(System.getProperty("user.home"), PROBE);
    try {
      Files.writeString(probe, "written by a submission");
      System.out.println("HOME WRITE: succeeded at " + probe);
    } catch (Exception e) {
      System.out.println("HOME WRITE: refused: " + e);
    }
    return a + b;
  }

  public static void handler() { }
}
