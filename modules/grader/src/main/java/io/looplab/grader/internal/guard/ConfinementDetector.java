package io.looplab.grader.internal.guard;

import io.looplab.grader.internal.settings.Settings;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Installs the confinement detector: rewrites the learner's classes (the one rule, {@link CodeUnderTest}) so that each
 * write of an instance field, and each read of a field that may hold a container or one of the learner's own
 * objects, first tells {@link Confinement},
 * which judges the thread. Only the learner's classes are rewritten, never the tests, Vert.x or the JDK, with the ASM
 * that Byte Buddy carries. A class loaded after the guard starts is rewritten as it loads; a class already loaded
 * (the test class refers to it) is retransformed: the rewrite only adds instructions inside existing methods, never
 * a field or a method, which is what the JVM allows for a class already defined.
 *
 * <p>Off with {@code -Dlooplab.confinement=false}.
 */
public final class ConfinementDetector implements Detector {

  /** The switch: {@code -Dlooplab.confinement=false} turns the detector off. */
  public static final String SWITCH = Settings.CONFINEMENT.name();

  private static final String RUNTIME = Confinement.class.getName().replace('.', '/');
  /** Methods that start a verticle on its context: the object's owner is the context they run on. */
  private static final Set<String> STARTS = Set.of("start", "init", "deploy");

  private static final Object lock = new Object();
  private static Instrumentation instrumentation;
  private static boolean failed;
  /** Classes rewritten already (name and loader), so that a class is never rewritten twice. */
  private static final Set<String> rewritten = ConcurrentHashMap.newKeySet();

  ConfinementDetector() {
  }

  @Override
  public String name() {
    return "the confinement detector";
  }

  public static boolean enabled() {
    return !Settings.CONFINEMENT.isFalse();
  }

  /**
   * Called by the guard once {@link CodeUnderTest} watches the test's package: installs the transformer (once per
   * JVM) and rewrites the learner's classes that are loaded already. Never fails a test: without an agent, the
   * detector stays off and says so on standard error.
   */
  @Override
  public void start(GuardSession session) {
    if (!enabled()) {
      return;
    }
    synchronized (lock) {
      if (failed) {
        return;
      }
      try {
        if (instrumentation == null) {
          Instrumentation installed = ByteBuddyAgent.install();
          installed.addTransformer(new LearnersClasses(), true);
          instrumentation = installed;
        }
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
          if (!type.isArray() && !type.isPrimitive() && !type.isInterface() && !rewritten.contains(key(type.getName(), type.getClassLoader()))
              && instrumentation.isModifiableClass(type) && isLearners(type.getName(), locationOf(type))) {
            loaded.add(type);
          }
        }
        if (!loaded.isEmpty()) {
          instrumentation.retransformClasses(loaded.toArray(new Class<?>[0]));
        }
      } catch (Throwable e) {
        failed = true;
        System.err.println("looplab: " + name() + " could not start (" + e + "); the learner's fields are "
            + "not watched for their thread.");
      }
    }
  }

  private static String key(String className, ClassLoader loader) {
    return className + "@" + System.identityHashCode(loader);
  }

  private static boolean isLearners(String className, URL location) {
    return CodeUnderTest.isLearnersClassFrom(className, location);
  }

  private static URL locationOf(Class<?> type) {
    return locationOf(type.getProtectionDomain());
  }

  private static URL locationOf(ProtectionDomain domain) {
    CodeSource source = domain == null ? null : domain.getCodeSource();
    return source == null ? null : source.getLocation();
  }

  /** The transformer: rewrites a class of the learner's as it loads or is retransformed. */
  private static final class LearnersClasses implements ClassFileTransformer {

    @Override
    public byte[] transform(ClassLoader loader, String internalName, Class<?> beingRedefined,
                            ProtectionDomain domain, byte[] bytes) {
      if (internalName == null || loader == null) {
        return null;
      }
      try {
        String className = internalName.replace('/', '.');
        if (!isLearners(className, locationOf(domain))) {
          return null;
        }
        ClassReader reader = new ClassReader(bytes);
        if ((reader.getAccess() & Opcodes.ACC_INTERFACE) != 0) {
          return null;
        }
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new Rewriter(writer, loader), 0);
        rewritten.add(key(className, loader));
        return writer.toByteArray();
      } catch (Throwable e) {
        System.err.println("looplab: the confinement detector left " + internalName + " as it was (" + e + ").");
        return null;
      }
    }
  }

  private static final class Rewriter extends ClassVisitor {

    private final ClassLoader loader;

    Rewriter(ClassVisitor next, ClassLoader loader) {
      super(Opcodes.ASM9, next);
      this.loader = loader;
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                     String[] exceptions) {
      MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
      if (next == null || name.equals("<clinit>")) {
        return next;
      }
      // In a constructor, "this" may not be initialised yet and cannot be passed to a method; writes during
      // construction are exempt anyway (the object has no owner until it is deployed).
      if (name.equals("<init>")) {
        return next;
      }
      boolean start = (access & Opcodes.ACC_STATIC) == 0 && STARTS.contains(name);
      return new FieldAccesses(next, loader, start);
    }
  }

  private static final class FieldAccesses extends MethodVisitor {

    private final ClassLoader loader;
    private final boolean start;

    FieldAccesses(MethodVisitor next, ClassLoader loader, boolean start) {
      super(Opcodes.ASM9, next);
      this.loader = loader;
      this.start = start;
    }

    @Override
    public void visitCode() {
      super.visitCode();
      if (start) {
        super.visitVarInsn(Opcodes.ALOAD, 0);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, RUNTIME, "started", "(Ljava/lang/Object;)V", false);
      }
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      if (opcode == Opcodes.PUTFIELD && Confinement.mayHoldLearnersObject(descriptor)) {
        int id = Confinement.field(loader, owner, name, descriptor);
        // [object, value] -> [object, value, object, value] -> check -> [object, value]
        super.visitInsn(Opcodes.DUP2);
        super.visitLdcInsn(id);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, RUNTIME, "write", "(Ljava/lang/Object;Ljava/lang/Object;I)V",
            false);
        super.visitFieldInsn(opcode, owner, name, descriptor);
        return;
      }
      if (opcode == Opcodes.PUTFIELD) {
        int id = Confinement.field(loader, owner, name, descriptor);
        if (descriptor.equals("J") || descriptor.equals("D")) {
          // [object, wide value] -> [object, wide value, object]
          super.visitInsn(Opcodes.DUP2_X1);
          super.visitInsn(Opcodes.POP2);
          super.visitInsn(Opcodes.DUP_X2);
        } else {
          // [object, value] -> [object, value, object]
          super.visitInsn(Opcodes.DUP2);
          super.visitInsn(Opcodes.POP);
        }
        super.visitLdcInsn(id);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, RUNTIME, "write", "(Ljava/lang/Object;I)V", false);
        super.visitFieldInsn(opcode, owner, name, descriptor);
        return;
      }
      if (opcode == Opcodes.GETFIELD
          && (Confinement.mayHoldContainer(descriptor) || Confinement.mayHoldLearnersObject(descriptor))) {
        int id = Confinement.field(loader, owner, name, descriptor);
        // [object] -> [object, object] -> [object, value] -> [value, object, value] -> check -> [value]
        super.visitInsn(Opcodes.DUP);
        super.visitFieldInsn(opcode, owner, name, descriptor);
        super.visitInsn(Opcodes.DUP_X1);
        super.visitLdcInsn(id);
        super.visitMethodInsn(Opcodes.INVOKESTATIC, RUNTIME, "read", "(Ljava/lang/Object;Ljava/lang/Object;I)V",
            false);
        return;
      }
      super.visitFieldInsn(opcode, owner, name, descriptor);
    }
  }
}
