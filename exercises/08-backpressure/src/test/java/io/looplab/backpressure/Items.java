package io.looplab.backpressure;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The items the tests send: a first line with the item's name, then padding up to the item's size. */
final class Items {

  private Items() {
  }

  /** An item of {@code size} bytes whose first line is {@code name}. */
  static Buffer of(String name, int size) {
    byte[] head = (name + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[Math.max(size, head.length)];
    Arrays.fill(bytes, (byte) '.');
    System.arraycopy(head, 0, bytes, 0, head.length);
    return Buffer.buffer(bytes);
  }

  /** The name of an item made by {@link #of}: its first line (the whole item when it has no line break). */
  static String nameOf(Buffer item) {
    if (item == null) {
      return "(null)";
    }
    int end = Math.min(item.length(), 200);
    String head = item.getString(0, end, "UTF-8");
    int newline = head.indexOf('\n');
    return newline < 0 ? head : head.substring(0, newline);
  }
}
