package io.looplab.smoke;
public class Adder {
  public static int add(int a, int b) { return a + b; }
  public static void handler() { java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean(); long end = t.getCurrentThreadCpuTime() + 100_000_000L; while (t.getCurrentThreadCpuTime() < end) { } }
}
