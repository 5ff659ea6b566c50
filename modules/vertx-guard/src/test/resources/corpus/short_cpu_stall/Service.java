package corpus.short_cpu_stall;

public final class Service {
  public static long work() {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + 80_000_000L;
    long x = 0;
    while (threads.getCurrentThreadCpuTime() < end) { // blocks here
      x += System.nanoTime() % 7; // blocks here
    }
    return x;
  }
}
