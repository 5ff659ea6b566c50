package io.looplab.cli.engine;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the learner's compiled classes call {@code System.exit} or {@code Runtime.exit}, as {@code File.java:line}:
 * the evidence a report gives when the test JVM ended before its tests did. A call found is where the code can end
 * the JVM; the report says so only beside a JVM that did end early.
 */
final class ExitCalls {

  /** More than a report names: a learner's code has one or two. */
  static final int MOST = 3;

  private ExitCalls() {
  }

  /** The call sites in the classes under {@code classes}, in file order, at most {@link #MOST}; none if unreadable. */
  static List<String> in(Path classes) {
    List<String> found = new ArrayList<>();
    if (!Files.isDirectory(classes)) {
      return found;
    }
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        read(Files.readAllBytes(file), found);
        if (found.size() >= MOST) {
          return found.subList(0, MOST);
        }
      }
    } catch (IOException | RuntimeException e) {
      // a class file that cannot be read gives no evidence; the report says what it knows without it
    }
    return found;
  }

  private static void read(byte[] classFile, List<String> found) {
    new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
      private String source = "?";

      @Override
      public void visitSource(String file, String debug) {
        source = file == null ? "?" : file;
      }

      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                       String[] exceptions) {
        return new MethodVisitor(Opcodes.ASM9) {
          private int line = -1;

          @Override
          public void visitLineNumber(int number, Label start) {
            line = number;
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean isInterface) {
            if (method.equals("exit") && (owner.equals("java/lang/System") || owner.equals("java/lang/Runtime"))) {
              String site = (owner.equals("java/lang/System") ? "System.exit" : "Runtime.exit") + " at " + source
                  + (line > 0 ? ":" + line : "");
              if (!found.contains(site)) {
                found.add(site);
              }
            }
          }
        };
      }
    }, ClassReader.SKIP_FRAMES);
  }
}
