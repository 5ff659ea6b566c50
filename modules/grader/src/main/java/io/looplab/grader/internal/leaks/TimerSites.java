package io.looplab.grader.internal.leaks;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Where each timer was set. Every Vert.x timer ({@code setTimer}, {@code setPeriodic}, {@code vertx.timer(...)},
 * {@code Future.timeout(...)}) ends up as one Netty {@code ScheduledFutureTask} in the queue of an event loop, but
 * only the first two are in Vert.x's own timer map, and none remembers who asked for it. So the task's constructors
 * are instrumented once per JVM: a task created under one of those Vert.x calls keeps the stack it was created on,
 * from which {@link TimerCensus} names the learner's line. Tasks Netty or Vert.x make for themselves (a connect
 * timeout, a keep-alive) are not timer calls and keep nothing.
 *
 * <p>The rewrite is a plain class-file transformer with the ASM that Byte Buddy carries (as the confinement detector
 * does), not Byte Buddy's agent builder: every grading JVM installs this, and the agent builder loaded a thousand
 * classes of its own and scanned every loaded class, some 450 ms of CPU per JVM; this takes a few.
 */
public final class TimerSites {

  private static final String TASK = "io.netty.util.concurrent.ScheduledFutureTask";
  private static final int DEEPEST = 96;

  private static final Map<Object, Site> sites = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * Where a timer was set: the stack, and the Vert.x instance whose context set it (null off Vert.x's threads). A
   * deadline on a future that has no context ({@code Promise.promise().future().timeout(...)}) is scheduled on
   * Netty's one global executor, which every Vert.x instance shares: the owner tells whose it is.
   */
  record Site(StackTraceElement[] stack, Vertx owner) {
  }
  private static final Object lock = new Object();
  private static volatile Boolean installed;
  private static volatile String failure;

  private TimerSites() {
  }

  /** Instruments Netty's scheduled tasks once per JVM. Returns why it could not, or {@code null} when it is on. */
  public static String ensureInstalled() {
    if (installed == null) {
      synchronized (lock) {
        if (installed == null) {
          try {
            Instrumentation instrumentation = ByteBuddyAgent.install();
            instrumentation.addTransformer(new RecordSites(), true);
            for (Class<?> type : instrumentation.getAllLoadedClasses()) {
              if (type.getName().equals(TASK)) {
                instrumentation.retransformClasses(type); // loaded before the guard: rewritten in place
              }
            }
            installed = true;
          } catch (Throwable e) {
            failure = "the grader could not watch where timers are set (" + e + ")";
            installed = false;
          }
        }
      }
    }
    return Boolean.TRUE.equals(installed) ? null : failure;
  }

  /** Whether sites are being recorded: when not, only Vert.x's own timer map can be read. */
  static boolean active() {
    return Boolean.TRUE.equals(installed);
  }

  /** Called from every new scheduled task (the rewritten constructors call it, see {@link RecordSites}): keeps the stack when a timer call made it. */
  public static void record(Object task) {
    // Frames first, lines only for a timer call: Netty makes scheduled tasks for itself too, and those pay for the
    // walk alone.
    List<StackWalker.StackFrame> frames = StackWalker.getInstance().walk(walk -> walk.limit(DEEPEST).toList());
    if (timerCall(frames.stream().map(frame -> new StackTraceElement(frame.getClassName(), frame.getMethodName(),
        null, -1)).toList()).isPresent()) {
      Context context = Vertx.currentContext();
      StackTraceElement[] stack = frames.stream().map(StackWalker.StackFrame::toStackTraceElement)
          .toArray(StackTraceElement[]::new);
      sites.put(task, new Site(stack, context == null ? null : context.owner()));
    }
  }

  /** Where a timer call created {@code task}, or empty when no timer call made it. */
  static Optional<Site> siteOf(Object task) {
    return Optional.ofNullable(sites.get(task));
  }

  /**
   * The Vert.x timer call on a stack ("setTimer", "setPeriodic", "timer" or "timeout"), when code outside Vert.x made
   * it: the last Vert.x method before the first frame that is neither Netty's nor Vert.x's. A timer Vert.x sets for
   * itself under some other call (an event-bus request's reply timeout, under {@code request}) is not one.
   */
  static Optional<String> timerCall(List<StackTraceElement> stack) {
    StackTraceElement lastVertx = null;
    for (StackTraceElement frame : stack) {
      String type = frame.getClassName();
      if (type.startsWith("io.vertx.")) {
        lastVertx = frame;
      } else if (!type.startsWith("io.netty.") && !type.equals(TimerSites.class.getName())) {
        break;
      }
    }
    if (lastVertx == null) {
      return Optional.empty();
    }
    String method = lastVertx.getMethodName();
    boolean timerCall = method.equals("setTimer") || method.equals("setPeriodic") || method.equals("timer")
        || method.equals("timeout") && lastVertx.getClassName().startsWith("io.vertx.core.impl.future.");
    return timerCall ? Optional.of(method) : Optional.empty();
  }

  /**
   * Rewrites Netty's scheduled task as it loads (or is retransformed): each constructor calls {@link #record} with
   * the new task just before it returns normally. Only instructions are added, inside existing methods, and none
   * that branch, so the class keeps its shape and its stack-map frames: what retransformation allows.
   */
  private static final class RecordSites implements ClassFileTransformer {

    private static final String TASK_INTERNAL = TASK.replace('.', '/');
    private static final String SELF = TimerSites.class.getName().replace('.', '/');

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> beingRedefined,
                            ProtectionDomain domain, byte[] bytes) {
      if (!TASK_INTERNAL.equals(internalName)) {
        return null;
      }
      try {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                           String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            return name.equals("<init>") ? new CallRecordBeforeReturn(next) : next;
          }
        }, 0);
        return writer.toByteArray();
      } catch (Throwable e) {
        failure = "the grader could not watch where timers are set (" + e + ")";
        return null; // the class stays as it was: the census reads Vert.x's timer map alone
      }
    }

    private static final class CallRecordBeforeReturn extends MethodVisitor {

      CallRecordBeforeReturn(MethodVisitor next) {
        super(Opcodes.ASM9, next);
      }

      @Override
      public void visitInsn(int opcode) {
        if (opcode == Opcodes.RETURN) {
          super.visitVarInsn(Opcodes.ALOAD, 0);
          super.visitMethodInsn(Opcodes.INVOKESTATIC, SELF, "record", "(Ljava/lang/Object;)V", false);
        }
        super.visitInsn(opcode);
      }
    }
  }
}
