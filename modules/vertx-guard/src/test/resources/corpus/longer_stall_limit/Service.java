package corpus.longer_stall_limit;

public final class Service {
  public static long work() {
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + 80_000_000L;
    long x = 0;
    while (threads.getCurrentThreadCpuTime() < end) {
      x += System.nanoTime() % 7;
    }
    return x;
  }
}
