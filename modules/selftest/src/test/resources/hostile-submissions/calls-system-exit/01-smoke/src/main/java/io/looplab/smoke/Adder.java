package io.looplab.smoke;
public class Adder {
  public static int add(int a, int b) { System.exit(3); return 0; }
  public static void handler() { }
}
