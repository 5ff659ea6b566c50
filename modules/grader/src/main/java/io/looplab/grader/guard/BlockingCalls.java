package io.looplab.grader.guard;

import java.util.Map;

/** Names a blocking JDK method the way a learner thinks of it, keeping the method's own name in brackets. */
final class BlockingCalls {

  private static final Map<String, String> PLAIN_WORDS = Map.of(
      "jdk.internal.misc.Unsafe.park", "a wait for a lock, a latch or a future's join()/get()",
      "java.lang.Object.wait", "a wait on a monitor (wait(), join())",
      "sun.nio.ch.FileChannelImpl.read", "a file read, as in Files.readString or Files.readAllBytes",
      "sun.nio.ch.FileChannelImpl.write", "a file write, as in Files.writeString",
      "java.io.FileInputStream.readBytes", "a file read through a FileInputStream",
      "java.io.FileOutputStream.writeBytes", "a file write through a FileOutputStream",
      "java.io.RandomAccessFile.readBytes", "a file read through a RandomAccessFile",
      "java.net.SocketInputStream.socketRead0", "a read from a blocking socket",
      "sun.nio.ch.SocketChannelImpl.read", "a read from a blocking socket");

  private BlockingCalls() {
  }

  static String describe(String method) {
    String words = PLAIN_WORDS.get(method);
    return words == null ? method : words + " (" + method + ")";
  }
}
