package io.looplab.grader.internal.guard;

import java.util.HashMap;
import java.util.Map;

/**
 * Names a blocking JDK (or Vert.x) method the way a learner thinks of it, keeping the method's own name in brackets.
 * It covers every method BlockHound 1.0 marks by default on JDK 8 to 25, the ones the guard marks itself, and the
 * native I/O methods a stalled loop can be found waiting in.
 */
final class BlockingCalls {

  private static final Map<String, String> PLAIN_WORDS = new HashMap<>();

  private static void words(String words, String... methods) {
    for (String method : methods) {
      PLAIN_WORDS.put(method, words);
    }
  }

  static {
    words("a sleep", "java.lang.Thread.sleep", "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos0",
        "java.lang.Thread.sleepNanos");
    words("Thread.yield(), which hands the thread's turn away", "java.lang.Thread.yield", "java.lang.Thread.yield0");
    words("a busy wait for another thread (Thread.onSpinWait)", "java.lang.Thread.onSpinWait");
    words("a wait on a monitor (wait(), or Thread.join())", "java.lang.Object.wait", "java.lang.Object.wait0");
    words("a wait for a future, a lock or a latch",
        "jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park");
    words("a file read, as in Files.readString or Files.readAllBytes", "sun.nio.ch.FileChannelImpl.read");
    words("a file write, as in Files.writeString", "sun.nio.ch.FileChannelImpl.write");
    words("a read through a FileInputStream (a file, a device such as /dev/random, or a pipe)",
        "java.io.FileInputStream.readBytes", "java.io.FileInputStream.read0", "java.io.FileInputStream.read",
        "java.io.FileInputStream.readAllBytes", "java.io.FileInputStream.readNBytes");
    words("a file write through a FileOutputStream", "java.io.FileOutputStream.writeBytes", "java.io.FileOutputStream.write0",
        "java.io.FileOutputStream.write");
    words("a file read through a RandomAccessFile", "java.io.RandomAccessFile.readBytes",
        "java.io.RandomAccessFile.read0", "java.io.RandomAccessFile.read", "java.io.RandomAccessFile.readFully");
    words("a file write through a RandomAccessFile", "java.io.RandomAccessFile.writeBytes",
        "java.io.RandomAccessFile.write0", "java.io.RandomAccessFile.write");
    words("a read from a blocking java.net.Socket", "java.net.SocketInputStream.socketRead0",
        "java.net.Socket$SocketInputStream.read");
    words("a write to a blocking java.net.Socket", "java.net.SocketOutputStream.socketWrite0",
        "java.net.Socket$SocketOutputStream.write");
    words("opening a connection with a blocking java.net.Socket", "java.net.Socket.connect", "java.net.Socket.<init>");
    words("a wait for a client to connect to a blocking ServerSocket (accept)", "java.net.ServerSocket.implAccept",
        "java.net.PlainSocketImpl.socketAccept");
    words("connecting a DatagramSocket", "java.net.DatagramSocket.connect", "java.net.PlainDatagramSocketImpl.connect0");
    words("a send or a receive on a blocking DatagramSocket", "java.net.PlainDatagramSocketImpl.peekData",
        "java.net.PlainDatagramSocketImpl.send", "java.net.PlainDatagramSocketImpl.send0");
    words("starting an operating-system process (ProcessBuilder.start, Runtime.exec), which waits for the fork",
        "java.lang.ProcessImpl.forkAndExec", "java.lang.UNIXProcess.forkAndExec");
    words("a read from a SocketChannel in blocking mode, as a JDBC-style driver does",
        "sun.nio.ch.SocketChannelImpl.read");
    words("a write to a SocketChannel in blocking mode, as a JDBC-style driver does",
        "sun.nio.ch.SocketChannelImpl.write");
    words("connecting a SocketChannel in blocking mode, which waits for the server",
        "sun.nio.ch.SocketChannelImpl.connect", "sun.nio.ch.SocketChannelImpl.finishConnect");
    words("a wait for a client to connect to a ServerSocketChannel in blocking mode (accept)",
        "sun.nio.ch.ServerSocketChannelImpl.accept");
    words("a send or a receive on a DatagramChannel in blocking mode", "sun.nio.ch.DatagramChannelImpl.receive",
        "sun.nio.ch.DatagramChannelImpl.send", "sun.nio.ch.DatagramChannelImpl.read",
        "sun.nio.ch.DatagramChannelImpl.write");
    words("a read from a pipe in blocking mode", "sun.nio.ch.SourceChannelImpl.read");
    words("a write to a pipe in blocking mode", "sun.nio.ch.SinkChannelImpl.write");
    words("Future.await(), a wait for a future, which Vert.x refuses on an event loop with an IllegalStateException "
        + "(compose, map or onSuccess instead)", "io.vertx.core.Future.await");
    // Native I/O that a stalled loop can be found waiting in.
    words("native I/O on a socket", "sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketDispatcher.write0",
        "sun.nio.ch.SocketDispatcher.readv0", "sun.nio.ch.SocketDispatcher.writev0", "sun.nio.ch.Net.poll",
        "sun.nio.ch.Net.connect0", "sun.nio.ch.Net.accept", "sun.nio.ch.Net.pollConnect",
        "sun.nio.ch.NioSocketImpl.park", "java.net.SocketInputStream.socketRead0");
    words("native file I/O", "sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.FileDispatcherImpl.pread0",
        "sun.nio.ch.FileDispatcherImpl.write0", "sun.nio.ch.FileDispatcherImpl.pwrite0",
        "sun.nio.ch.FileDispatcherImpl.force0", "sun.nio.ch.UnixFileDispatcherImpl.read0",
        "sun.nio.ch.UnixFileDispatcherImpl.pread0", "sun.nio.ch.UnixFileDispatcherImpl.write0",
        "sun.nio.ch.UnixFileDispatcherImpl.pwrite0", "sun.nio.ch.UnixFileDispatcherImpl.force0");
    words("a DNS lookup, which waits for the name server (Vert.x resolves names without blocking: give its clients "
        + "the host name, or use vertx.createDnsClient())", "java.net.InetAddress.getByName",
        "java.net.InetAddress.getAllByName", "java.net.InetAddress.getLocalHost");
    words("a reverse DNS lookup, which waits for the name server", "java.net.InetAddress.getHostName",
        "java.net.InetAddress.getCanonicalHostName");
    words("a wait for entropy: a seed, or a 'strong' SecureRandom, reads /dev/random, which can block until the system "
        + "has gathered enough (new SecureRandom().nextBytes reads /dev/urandom and never waits)",
        // NativePRNG's nextBytes from /dev/urandom is never reported, so a SecureRandom method here is one that waits.
        "java.security.SecureRandom.generateSeed", "java.security.SecureRandom.nextBytes",
        "java.security.SecureRandom.next", "java.security.SecureRandom.<init>", "java.security.SecureRandom.setSeed");
    words("a wait for a process to end", "java.lang.ProcessHandleImpl.waitForProcessExit0",
        "java.lang.ProcessImpl.waitForProcessExit");
  }

  private BlockingCalls() {
  }

  static String describe(String method) {
    String words = PLAIN_WORDS.get(method);
    return words == null ? "a call that blocks (" + method + ")" : words + " (" + method + ")";
  }

  /**
   * True when the top of {@code stack}, above frame {@code upTo}, is a thread pool taking a task in
   * ({@code ThreadPoolExecutor.execute}): its queue lock is held for moments only, by the pool's own threads, so a
   * wait there is the pool's, however long a crowded machine makes it. A task the pool runs on the caller
   * ({@code reject}, with CallerRunsPolicy) is the caller's work again. The blocking-call detector has the same
   * allowance.
   */
  static boolean isHandingTaskToPool(StackTraceElement[] stack, int upTo) {
    for (int i = 0; i < upTo && i < stack.length; i++) {
      if (stack[i].getClassName().equals("java.util.concurrent.ThreadPoolExecutor")) {
        if (stack[i].getMethodName().equals("reject")) {
          return false;
        }
        if (stack[i].getMethodName().equals("execute")) {
          return true;
        }
      }
    }
    return false;
  }

  /** True for a native method that waits for I/O, for a loop found inside it. */
  static boolean isNativeIo(StackTraceElement frame) {
    String c = frame.getClassName();
    return frame.isNativeMethod() && (c.startsWith("sun.nio.ch.") || c.startsWith("java.net.") || c.startsWith("sun.net.")
        || c.startsWith("java.io.") || c.startsWith("sun.nio.fs.") || c.startsWith("java.lang.Process")
        || c.startsWith("java.lang.UNIXProcess"));
  }
}
