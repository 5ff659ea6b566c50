package io.looplab.cli.engine;

import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Refuses compiled learner code that reaches for the grader, before any test runs. The learner's classes run in the
 * same JVM as the graded tests and the scorer, so code that reflects, takes method handles, starts a process, adds a
 * shutdown hook, loads a class or a native library, writes on the raw standard output, or calls the grader or JUnit
 * could forge its own grade; {@link ForbiddenApis} lists all of it, each with its reason, and no exercise needs any
 * of it. A refusal is one line: {@code SeatCounter.java:42 calls java.lang.reflect.Field.setAccessible (reflection):
 * ...}.
 *
 * <p>What counts is what the code does, read from its instructions: the types it creates, casts to, tests and
 * catches, the class constants it loads, the fields and methods it uses (by the owner the code named and that
 * owner's supertypes), the method references and bootstraps of its invokedynamic instructions, and the classes its
 * own classes extend, implement or are annotated with. The types in a field's or a method's declared signature do not
 * count on their own: a parameter of type {@code java.lang.reflect.Method} does nothing until some instruction gets
 * or uses a Method, and that instruction is refused.
 *
 * <p>This closes the direct doors, not every door: a string handed to a library that reflects for its caller (a
 * verticle deployed by class name, say) is not seen here. The sandbox and the separate grading JVM are the other
 * walls.
 */
final class ForbiddenApiCheck {

  private static final String WHY = "graded code may not reach into the grader; no exercise needs it";

  private ForbiddenApiCheck() {
  }

  /**
   * The first forbidden reference in the classes under {@code classes} (in the order of their paths, then of their
   * code), as one line for the learner, or empty when there is none; {@code libraries}: the class path the code was
   * compiled against, where the supertypes of the types it uses are found.
   */
  static Optional<String> problemWith(Path classes, List<Path> libraries) {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(p -> p.toString().endsWith(".class") && Files.isRegularFile(p)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (Supertypes supertypes = new Supertypes(classes, libraries)) {
      for (Path file : files) {
        Optional<String> offence = firstOffence(Files.readAllBytes(file), supertypes);
        if (offence.isPresent()) {
          return offence;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Optional.empty();
  }

  /** The first forbidden reference in one class file, as the line of the refusal. */
  private static Optional<String> firstOffence(byte[] classFile, Supertypes supertypes) {
    ClassScan scan = new ClassScan(supertypes);
    new ClassReader(classFile).accept(scan, ClassReader.SKIP_FRAMES);
    return Optional.ofNullable(scan.refusal());
  }

  /** A type's internal name, or an array's element type's; null for an array of primitives. */
  private static String typeName(Type type) {
    Type element = type.getSort() == Type.ARRAY ? type.getElementType() : type;
    return element.getSort() == Type.OBJECT ? element.getInternalName() : null;
  }

  /** Reads one class, keeping the first forbidden reference and where it is. */
  private static final class ClassScan extends ClassVisitor {

    private final Supertypes supertypes;
    private String className;
    private String sourceFile;
    /** The first offence: what the code does, ready for the refusal's line, and its line (0: none). */
    private String offence;
    private int offenceLine;

    ClassScan(Supertypes supertypes) {
      super(Opcodes.ASM9);
      this.supertypes = supertypes;
    }

    /** The refusal's line for the first offence, or null. */
    String refusal() {
      if (offence == null) {
        return null;
      }
      String where = sourceFile != null ? sourceFile : className.replace('/', '.');
      return where + (offenceLine > 0 ? ":" + offenceLine : "") + " " + offence + ": " + WHY;
    }

    /**
     * Notes a reference to {@code owner}, or its {@code member}, if it is the first forbidden one; {@code doing} says
     * what the code does with it ("calls"), {@code what} names it for the learner.
     */
    void check(String owner, String member, String doing, String what, int line) {
      if (offence == null) {
        ForbiddenApis.reasonFor(owner, member, supertypes).ifPresent(reason -> refuse(reason, doing + " " + what,
            line));
      }
    }

    /** Keeps {@code offence} if it is the first: what the code does ("calls java.lang.Runtime.exec"). */
    void refuse(ForbiddenApis.Reason reason, String offence, int line) {
      if (this.offence == null) {
        this.offence = offence + " (" + reason.words + ")";
        offenceLine = line;
      }
    }

    /** Notes a reference to a type ({@code type} null: an array of primitives, always allowed). */
    void checkType(String type, String doing, int line) {
      if (type != null) {
        check(type, null, doing, ForbiddenApis.Entry.javaName(type, null), line);
      }
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
        String[] interfaces) {
      className = name;
      String declares = "declares " + name.replace('/', '.') + ", which ";
      if (superName != null) {
        checkType(superName, declares + "extends", 0);
      }
      for (String implemented : interfaces) {
        checkType(implemented, declares + "implements", 0);
      }
    }

    @Override
    public void visitSource(String source, String debug) {
      sourceFile = source;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      checkType(typeName(Type.getType(descriptor)), "declares " + className.replace('/', '.')
          + ", annotated with", 0);
      return null;
    }

    @Override
    public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
      String declares = "declares the field " + className.replace('/', '.') + "." + name + ", annotated with";
      return new FieldVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
          checkType(typeName(Type.getType(annotation)), declares, 0);
          return null;
        }
      };
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
        String[] exceptions) {
      return new MethodScan(this, "declares the method " + className.replace('/', '.') + "." + name
          + ", annotated with");
    }
  }

  /** Reads one method's code, following its line numbers. */
  private static final class MethodScan extends MethodVisitor {

    private final ClassScan scan;
    private final String annotatedAs;
    private int line;
    /** Catch clauses of forbidden types are reported where they start, at their handler's first line. */
    private final Map<Label, String> catchesAt = new HashMap<>();
    private String caughtHere;

    MethodScan(ClassScan scan, String annotatedAs) {
      super(Opcodes.ASM9);
      this.scan = scan;
      this.annotatedAs = annotatedAs;
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      scan.checkType(typeName(Type.getType(descriptor)), annotatedAs, 0);
      return null;
    }

    @Override
    public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
      return visitAnnotation(descriptor, visible);
    }

    @Override
    public void visitLineNumber(int line, Label start) {
      this.line = line;
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      if (type != null) {
        catchesAt.put(handler, type);
      }
    }

    @Override
    public void visitLabel(Label label) {
      if (catchesAt.containsKey(label)) {
        caughtHere = catchesAt.get(label);
      }
    }

    /** Called before each instruction: the line of a handler is known by its first instruction. */
    private void instruction() {
      if (caughtHere != null) {
        scan.checkType(caughtHere, "catches", line);
        caughtHere = null;
      }
    }

    @Override
    public void visitInsn(int opcode) {
      instruction();
    }

    @Override
    public void visitIntInsn(int opcode, int operand) {
      instruction();
    }

    @Override
    public void visitVarInsn(int opcode, int varIndex) {
      instruction();
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      instruction();
    }

    @Override
    public void visitIincInsn(int varIndex, int increment) {
      instruction();
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      instruction();
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      instruction();
    }

    @Override
    public void visitTypeInsn(int opcode, String type) {
      instruction();
      scan.checkType(typeName(Type.getObjectType(type)), opcode == Opcodes.NEW ? "creates" : "uses", line);
    }

    @Override
    public void visitMultiANewArrayInsn(String descriptor, int dimensions) {
      instruction();
      scan.checkType(typeName(Type.getType(descriptor)), "uses", line);
    }

    @Override
    public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
      instruction();
      boolean reads = opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC;
      scan.check(owner, name, reads ? "reads" : "writes", ForbiddenApis.Entry.javaName(owner, name), line);
    }

    @Override
    public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
      instruction();
      member(typeName(Type.getObjectType(owner)), name, "calls");
    }

    /** A call, or a method reference: a constructor is a use of its type, anything else of the member. */
    private void member(String owner, String name, String doing) {
      if (owner == null) {
        return; // clone() of an array of primitives
      }
      if (name.equals("<init>")) {
        scan.checkType(owner, "creates", line);
      } else {
        scan.check(owner, name, doing, ForbiddenApis.Entry.javaName(owner, name), line);
      }
    }

    @Override
    public void visitLdcInsn(Object value) {
      instruction();
      constant(value);
    }

    @Override
    public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
      instruction();
      bootstrap(bootstrap, arguments);
    }

    /**
     * javac's own bootstraps (lambdas, string concatenation, records, pattern switches) are allowed, and judged by
     * what they are handed: {@code Runtime::exec} is refused as if it were called.
     */
    private void bootstrap(Handle bootstrap, Object[] arguments) {
      if (!ForbiddenApis.isAllowedBootstrap(bootstrap.getOwner(), bootstrap.getName())) {
        // Any other bootstrap, a library's or the code's own, is handed a Lookup: method handles at the least.
        ForbiddenApis.Reason reason = ForbiddenApis.reasonFor(bootstrap.getOwner(), bootstrap.getName(),
            scan.supertypes).orElse(ForbiddenApis.Reason.METHOD_HANDLES);
        scan.refuse(reason, "uses the bootstrap method " + ForbiddenApis.Entry.javaName(bootstrap.getOwner(),
            bootstrap.getName()), line);
      }
      for (Object argument : arguments) {
        constant(argument);
      }
    }

    /** A constant loaded or handed to a bootstrap: a class, a method reference, a dynamic constant. */
    private void constant(Object value) {
      if (value instanceof Type type && type.getSort() != Type.METHOD) {
        scan.checkType(typeName(type), "uses", line);
      } else if (value instanceof Handle handle) {
        member(typeName(Type.getObjectType(handle.getOwner())), handle.getName(), "refers to");
      } else if (value instanceof ConstantDynamic dynamic) {
        Object[] arguments = new Object[dynamic.getBootstrapMethodArgumentCount()];
        for (int i = 0; i < arguments.length; i++) {
          arguments[i] = dynamic.getBootstrapMethodArgument(i);
        }
        bootstrap(dynamic.getBootstrapMethod(), arguments);
      }
    }
  }
}
