package io.looplab.smoke;
public class Adder {
  public static int add(int a, int b) { while (true) { Math.sqrt(a + b); } }
  public static void handler() { }
}
