package io.looplab.smoke;
public class Adder {
  public static int add(int a, int b) { for (int i = 0; i < 300000; i++) System.out.println("spam spam spam spam spam spam " + i); return a + b; }
  public static void handler() { }
}
