package io.looplab.smoke;
public class Adder {
  private static final Object NEVER = new Object();
  public static int add(int a, int b) {
    Thread waiter = new Thread(() -> {
      synchronized (NEVER) {
        try { NEVER.wait(); } catch (InterruptedException e) { }
      }
    }, "never-ending-waiter");
    waiter.setDaemon(true);
    waiter.start();
    return a + b;
  }
  public static void handler() { }
}
