package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.settings.Settings;
import net.bytebuddy.agent.ByteBuddyAgent;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingMethod;
import reactor.blockhound.BlockingOperationError;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Catches a blocking call on an event-loop thread at the moment it is made, with BlockHound. Netty's own BlockHound
 * integration (loaded through ServiceLoader) already treats Vert.x event loops as non-blocking threads and its
 * worker threads as allowed to block; this class adds what a grader needs on top:
 * <ul>
 *   <li>file reads and writes through a {@code FileChannel} ({@code Files.readString} and friends);</li>
 *   <li>an NIO channel used in blocking mode (a {@code SocketChannel} as a JDBC-style driver uses it), without
 *       flagging Netty's own non-blocking reads and writes: a channel calls
 *       {@code AbstractInterruptibleChannel.begin()} before an operation only in blocking mode, so that is the
 *       method marked, and the report names the channel operation that called it;</li>
 *   <li>{@code Future.await()}, which Vert.x refuses on an event loop with an IllegalStateException that a router
 *       would turn into a bare 500;</li>
 *   <li>an allowance for handing a task to a {@code ThreadPoolExecutor}, whose queue lock is contended for a
 *       moment now and then (a task the pool runs on the caller's thread is still checked);</li>
 *   <li>a name looked up through the JDK's resolver ({@code InetAddress.getByName}, {@code getAllByName},
 *       {@code getLocalHost}, and the reverse {@code getHostName}), which waits for the name server: the native
 *       lookups of {@code Inet6AddressImpl} and {@code Inet4AddressImpl} are marked, under both their JDK 17 and their
 *       JDK 18+ signatures. A name the JDK has cached, or an address literal, makes no lookup and is not reported;</li>
 *   <li>entropy that can wait: {@code SecureRandom.generateSeed} and a blocking ("strong") {@code SecureRandom}
 *       read {@code /dev/random}; while {@code UUID.randomUUID} and {@code SecureRandom}'s NativePRNG
 *       {@code nextBytes}, which rereads {@code /dev/urandom} whenever its 100 ms buffer is stale, wait for nothing
 *       and stay allowed. BlockHound sees only the file read under both, so the stack tells them apart
 *       ({@link #entropyKind}).</li>
 * </ul>
 *
 * <p>BlockHound rewrites JDK classes for the whole JVM and for good, which is why graded tests run in a JVM of their
 * own, started with {@code -XX:+AllowRedefinitionToAddDeleteMethods}.
 */
final class BlockingCallDetector implements Detector {

  private static final String CHANNEL_BEGIN = "java.nio.channels.spi.AbstractInterruptibleChannel.begin";
  /** The channels whose {@code begin()} means "a network or pipe operation in blocking mode". */
  private static final Set<String> BLOCKING_MODE_CHANNELS = Set.of("sun.nio.ch.SocketChannelImpl",
      "sun.nio.ch.ServerSocketChannelImpl", "sun.nio.ch.DatagramChannelImpl", "sun.nio.ch.SourceChannelImpl",
      "sun.nio.ch.SinkChannelImpl");

  private static final String NAME = "blocking-call detection";

  private static final String INET6 = "java.net.Inet6AddressImpl";
  private static final String INET4 = "java.net.Inet4AddressImpl";

  /**
   * For a blocking call made inside one of these JDK classes, the class the learner called instead: a lookup is
   * named {@code InetAddress.getByName}, not the resolver's native method.
   */
  private static final java.util.Map<String, String> CALLED_AS = java.util.Map.of(INET6, "java.net.InetAddress",
      INET4, "java.net.InetAddress");

  /** What a read of the OS's random source under {@code SecureRandom} is: see {@link #entropyKind}. */
  enum Entropy { NONE, NEVER_WAITS, MAY_WAIT }

  /** Frames that are not the caller of a blocking call outside the code under test: the JDK's, BlockHound's, ours. */
  private static final Pattern NOT_A_CALLER =
      Pattern.compile("(java|jdk|sun|reactor|io\\.looplab\\.grader\\.internal\\.guard)\\..*");
  /** The blocking calls outside the code under test already said on standard error, with their caller. */
  private static final Set<String> toldOutside = ConcurrentHashMap.newKeySet();

  private static final Object lock = new Object();
  private static volatile Boolean installed;
  /** BlockHound's rewrites, when remembered or replayed: see {@link #instrumentation()}. */
  private static volatile RememberedRewrites rewrites;
  private static volatile String failure;

  @Override
  public String name() {
    return NAME;
  }

  /** Grading without it would pass code that blocks its event loop: a class does not start without it. */
  @Override
  public void start(GuardSession session) {
    String problem = ensureInstalled();
    if (problem != null) {
      throw new IllegalStateException(problem);
    }
  }

  /** Installs once per JVM. Returns why it could not, or {@code null} when detection is on. */
  static String ensureInstalled() {
    if (installed == null) {
      synchronized (lock) {
        if (installed == null) {
          try {
            Instrumentation instrumentation = instrumentation();
            BlockHound.install(builder -> builder
                .with(instrumentation)
                // UUID.randomUUID reads the OS entropy source once it is seeded; generating ids is normal.
                .allowBlockingCallsInside("java.util.UUID", "randomUUID")
                // Handing a task to a thread pool takes the queue's lock, and parks for a moment when a worker holds
                // it: executeBlocking does this on every call, and now and then it collides (seen in CI). A pool that
                // runs a task on the caller (CallerRunsPolicy) does so in reject(), where blocking counts again.
                .allowBlockingCallsInside("java.util.concurrent.ThreadPoolExecutor", "execute")
                .disallowBlockingCallsInside("java.util.concurrent.ThreadPoolExecutor", "reject")
                // Without this, Files.readString / readAllBytes on the loop slip through.
                .markAsBlocking("sun.nio.ch.FileChannelImpl", "read", "(Ljava/nio/ByteBuffer;)I")
                .markAsBlocking("sun.nio.ch.FileChannelImpl", "write", "(Ljava/nio/ByteBuffer;)I")
                // Called by a channel operation in blocking mode only; see the class comment.
                .markAsBlocking("java.nio.channels.spi.AbstractInterruptibleChannel", "begin", "()V")
                .markAsBlocking("io.vertx.core.Future", "await", "()Ljava/lang/Object;")
                .markAsBlocking("io.vertx.core.Future", "await", "(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;")
                .markAsBlocking("io.vertx.core.Future", "await", "(Lio/vertx/core/Future;)Ljava/lang/Object;")
                // The JDK's resolver asks the name server and waits: JDK 17's signatures, then JDK 18's and later.
                .markAsBlocking(INET6, "lookupAllHostAddr", "(Ljava/lang/String;)[Ljava/net/InetAddress;")
                .markAsBlocking(INET6, "lookupAllHostAddr", "(Ljava/lang/String;I)[Ljava/net/InetAddress;")
                .markAsBlocking(INET6, "getHostByAddr", "([B)Ljava/lang/String;")
                .markAsBlocking(INET6, "getLocalHostName", "()Ljava/lang/String;")
                .markAsBlocking(INET4, "lookupAllHostAddr", "(Ljava/lang/String;)[Ljava/net/InetAddress;")
                .markAsBlocking(INET4, "lookupAllHostAddr", "(Ljava/lang/String;I)[Ljava/net/InetAddress;")
                .markAsBlocking(INET4, "getHostByAddr", "([B)Ljava/lang/String;")
                .markAsBlocking(INET4, "getLocalHostName", "()Ljava/lang/String;")
                .blockingMethodCallback(BlockingCallDetector::onBlockingCall));
            installed = true;
          } catch (Throwable e) {
            failure = NAME + " could not start (" + e + "). Guarded tests need the JVM flags "
                + "-XX:+AllowRedefinitionToAddDeleteMethods -Djdk.attach.allowAttachSelf=true (and, on JDK 21 or "
                + "newer, -XX:+EnableDynamicAgentLoading): the kit's ./lab and mvn pass them; in a project of your own, "
                + "put them in surefire's argLine.";
            installed = false;
          }
        }
      }
    }
    return installed ? null : failure;
  }

  /**
   * The JVM's Instrumentation for BlockHound: the grader's own Byte Buddy agent's, so that the JVM attaches to itself
   * once (the timer and field watchers use the same; BlockHound's shaded copy would attach again, about 80 ms of CPU),
   * with BlockHound's rewrites remembered or replayed when the kit says where ({@link RememberedRewrites}). Null, for
   * BlockHound's own, when the class path lacks the grader's Byte Buddy (one written before the grader needed it).
   */
  private static Instrumentation instrumentation() {
    Instrumentation jvm;
    try {
      jvm = ByteBuddyAgent.install();
    } catch (LinkageError e) {
      return null;
    }
    Optional<String> replay = Settings.BLOCKHOUND_REWRITES.raw();
    Optional<String> record = Settings.BLOCKHOUND_REWRITES_RECORD.raw();
    if (record.isPresent()) {
      rewrites = RememberedRewrites.recording(jvm, Path.of(record.get()));
    } else if (replay.isPresent()) {
      rewrites = RememberedRewrites.replaying(jvm, Path.of(replay.get()));
    } else {
      return jvm;
    }
    return rewrites;
  }

  /**
   * For the kit's JVM that remembers BlockHound's rewrites: writes them ({@link Settings#BLOCKHOUND_REWRITES_RECORD}).
   * Returns a line on what was remembered or replayed, or empty when neither was asked for.
   */
  static Optional<String> finishRewrites() throws IOException {
    RememberedRewrites kept = rewrites;
    if (kept == null) {
      return Optional.empty();
    }
    kept.save();
    return Optional.of(kept.summary());
  }

  /**
   * The line for a blocking call outside the code under test, naming its first caller below the JDK, BlockHound and
   * the guard; {@code null} when this call from this caller was said already in this JVM: a spin of the test's own on
   * the loop would otherwise print a line per turn.
   */
  static String outsideLine(String call, String thread, StackTraceElement[] stack, int blocking) {
    StackTraceElement from = Arrays.stream(stack, Math.max(0, blocking), stack.length)
        .filter(f -> !NOT_A_CALLER.matcher(f.getClassName()).matches()).findFirst().orElse(null);
    if (!toldOutside.add(call + " from " + from)) {
      return null;
    }
    return "looplab: not graded, a blocking call outside the code under test: " + call + " on " + thread + " from "
        + from + " (said once for this call and caller)";
  }

  private static void onBlockingCall(BlockingMethod method) {
    Thread thread = Thread.currentThread();
    StackTraceElement[] stack = new Throwable().getStackTrace();
    int blocking = blockingFrameIndex(stack);
    String call = method.getClassName().replace('/', '.') + "." + method.getName();
    if (call.equals(CHANNEL_BEGIN)) {
      call = blockingModeChannelCall(stack, blocking);
      if (call == null) {
        return; // a FileChannel (its reads and writes are marked themselves) or another channel: not graded here
      }
    }
    if (isAllowedByTheProject(stack, blocking)) {
      return;
    }
    Entropy entropy = entropyKind(stack, blocking);
    if (entropy == Entropy.NEVER_WAITS) {
      return; // /dev/urandom, for NativePRNG's nextBytes: it never waits
    }
    int learner = CodeUnderTest.firstFrameIndex(stack, blocking);
    if (learner >= 0 && entropy == Entropy.MAY_WAIT) {
      int api = outermostFrameOf(stack, blocking, learner, "java.security.SecureRandom");
      if (api >= 0) {
        call = "java.security.SecureRandom." + stack[api].getMethodName();
        blocking = api;
      }
    } else if (learner >= 0 && CALLED_AS.containsKey(stack[blocking].getClassName())) {
      int api = outermostFrameOf(stack, blocking, learner, CALLED_AS.get(stack[blocking].getClassName()));
      if (api >= 0) {
        call = stack[api].getClassName() + "." + stack[api].getMethodName();
        blocking = api;
      }
    } else if (learner >= 0 && !call.startsWith("sun.nio.ch.")) {
      // Name the JDK method as the learner called it: Thread.sleep, not Thread.sleepNanos0 (JDK 21+), and
      // FileInputStream.read, not readBytes. The outermost frame of the blocking method's own class stands for it.
      String blockingClass = stack[blocking].getClassName();
      int outer = blocking;
      while (outer + 1 < learner && stack[outer + 1].getClassName().equals(blockingClass)) {
        outer++;
      }
      call = blockingClass + "." + stack[outer].getMethodName();
      blocking = outer;
    }
    if (learner < 0) {
      // Vert.x, Netty or the test itself, not the learner's code: not theirs to fix. Let it run,
      // since throwing inside Vert.x's own machinery (a close, say) could wedge it.
      String line = outsideLine(call, thread.getName(), stack, blocking);
      if (line != null) {
        System.err.println(line);
      }
      return;
    }
    if (CodeUnderTest.isWarmingUp(stack, learner)) {
      // The JVM loading or initialising a class (the first socket reads a config file, say):
      // once per JVM, and not the learner's doing.
      return;
    }
    CodeUnderTest.CallSite site = CodeUnderTest.callSite(stack, learner, blocking, true);
    String words = BlockingCalls.describe(call);
    GuardSession.report(site.call() == null
        ? new Violation(Violation.Kind.BLOCKING_CALL, thread.getName(), words, site.where())
        : new Violation(Violation.Kind.BLOCKING_CALL, thread.getName(), "inside it, " + words, site.where(),
            site.callFrom()));
    // Stop the call, as BlockHound does: a test should not sit through a two-second sleep.
    throw new BlockingOperationError(method);
  }

  /**
   * Whether a blocking call is SecureRandom reading the OS's random source, and whether that read can wait: a seed
   * ({@code generateSeed}, NativePRNG's or the seed generator's) and a blocking NativePRNG read {@code /dev/random},
   * which may wait for entropy; NativePRNG's {@code nextBytes} reads {@code /dev/urandom}, which never does.
   */
  static Entropy entropyKind(StackTraceElement[] stack, int blocking) {
    Entropy kind = Entropy.NONE;
    for (int i = blocking; i < stack.length; i++) {
      String c = stack[i].getClassName();
      String m = stack[i].getMethodName();
      if (c.equals("sun.security.provider.NativePRNG$Blocking") || c.startsWith("sun.security.provider.SeedGenerator")
          || c.equals("sun.security.provider.NativePRNG$RandomIO") && m.equals("implGenerateSeed")
          || c.equals("java.security.SecureRandom") && m.equals("generateSeed")) {
        return Entropy.MAY_WAIT;
      }
      if (c.equals("sun.security.provider.NativePRNG$RandomIO") && m.equals("implNextBytes")) {
        kind = Entropy.NEVER_WAITS;
      }
    }
    return kind;
  }

  /** Whether a frame above the blocking call is a method the project allowed to block ({@code GuardOptions}). */
  private static boolean isAllowedByTheProject(StackTraceElement[] stack, int blocking) {
    GuardSession session = GuardSession.current();
    if (session == null || session.options().allowedBlocking().isEmpty()) {
      return false;
    }
    for (int i = blocking; i < stack.length; i++) {
      if (session.options().allowsBlockingIn(stack[i].getClassName(), stack[i].getMethodName())) {
        return true;
      }
    }
    return false;
  }

  /** The outermost frame of class {@code api} between the blocking frame and the learner's, or -1. */
  private static int outermostFrameOf(StackTraceElement[] stack, int blocking, int learner, String api) {
    int found = -1;
    for (int i = blocking; i < learner; i++) {
      if (stack[i].getClassName().equals(api)) {
        found = i;
      }
    }
    return found;
  }

  /** The frame of the method BlockHound caught: the one just below its own frames. */
  private static int blockingFrameIndex(StackTraceElement[] stack) {
    int last = -1;
    for (int i = 0; i < stack.length; i++) {
      if (stack[i].getClassName().startsWith("reactor.blockhound.")) {
        last = i;
      }
    }
    return Math.min(last + 1, stack.length - 1);
  }

  /**
   * For {@code begin()} called by a socket or pipe channel, the public operation that called it, as in
   * {@code sun.nio.ch.SocketChannelImpl.read} (past helpers such as {@code beginRead} and {@code implRead}).
   */
  private static String blockingModeChannelCall(StackTraceElement[] stack, int begin) {
    String found = null;
    for (int i = begin + 1; i < stack.length && BLOCKING_MODE_CHANNELS.contains(stack[i].getClassName()); i++) {
      String m = stack[i].getMethodName();
      if (!m.startsWith("begin") && !m.startsWith("impl") && !m.startsWith("lambda$")) {
        return stack[i].getClassName() + "." + m;
      }
      found = stack[i].getClassName() + "." + m;
    }
    return found;
  }
}
