package corpus.cpu_stall;

public final class Service {
  public static long work() {
    long x = 0;
    long end = System.nanoTime() + 400_000_000L;
    while (System.nanoTime() < end) { // blocks here
      x += System.nanoTime() % 7; // blocks here
    }
    return x;
  }
}
