package io.looplab.smoke;
public class Adder {
  public static int add(int a, int b) { return a + b; }
  public static void handler() { long end = System.nanoTime() + 100_000_000L; while (System.nanoTime() < end) { } }
}
