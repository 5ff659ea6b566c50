package io.looplab.cli.engine;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Small learner classes, compiled here as the grader compiles a submission (javac, --release 17, with debug
 * information), each reaching for the grader in one way: every one is refused with its file, line and API; and code
 * that only looks like it (a lambda, a record, a pattern switch, getClass().getSimpleName()) is accepted.
 */
class ForbiddenApiCheckTest {

  private static final String WHY = ": graded code may not reach into the grader; no exercise needs it";
  private static final List<Path> CLASS_PATH = Arrays.stream(System.getProperty("java.class.path")
      .split(File.pathSeparator)).map(Path::of).toList();

  @TempDir
  Path work;

  /** One hostile class: its body (in a method, line 4 onwards, unless it is a whole class) and the refusal expected. */
  record Hostile(String name, String source, String refusal) {
  }

  private static Hostile inMethod(String name, String statement, String refusal) {
    return new Hostile(name, "package x;\npublic class Grab {\n  void grab() throws Exception {\n    " + statement
        + "\n  }\n}\n", refusal + WHY);
  }

  private static final List<Hostile> HOSTILE = List.of(
      inMethod("a field made accessible (a parameter of a reflection type alone is not refused; its use is)",
          "}\n  void grab(java.lang.reflect.Field f) throws Exception {\n    f.setAccessible(true);",
          "Grab.java:6 calls java.lang.reflect.Field.setAccessible (reflection)"),
      inMethod("a class looked up by name", "Class.forName(\"io.looplab.grader.internal.scoring.ScoringListener\");",
          "Grab.java:4 calls java.lang.Class.forName (reflection)"),
      inMethod("a class's declared fields", "String.class.getDeclaredFields();",
          "Grab.java:4 calls java.lang.Class.getDeclaredFields (reflection)"),
      inMethod("a method handle lookup", "java.lang.invoke.MethodHandles.lookup();",
          "Grab.java:4 calls java.lang.invoke.MethodHandles.lookup (method handles)"),
      new Hostile("a method reference to Runtime.exec, never called here", "package x;\npublic class Grab {\n  "
          + "interface Run {\n    Object run(String command) throws Exception;\n  }\n  Run grab() {\n    return "
          + "Runtime.getRuntime()::exec;\n  }\n}\n", "Grab.java:7 refers to java.lang.Runtime.exec (processes)" + WHY),
      inMethod("sun.misc.Unsafe", "Object unsafe = sun.misc.Unsafe.getUnsafe();",
          "Grab.java:4 calls sun.misc.Unsafe.getUnsafe (the JDK's internals)"),
      inMethod("a ProcessBuilder", "new ProcessBuilder(\"sh\").start();",
          "Grab.java:4 creates java.lang.ProcessBuilder (processes)"),
      inMethod("the current process's handle", "long pid = ProcessHandle.current().pid();",
          "Grab.java:4 calls java.lang.ProcessHandle.current (processes)"),
      inMethod("a shutdown hook", "Runtime.getRuntime().addShutdownHook(new Thread(() -> { }));",
          "Grab.java:4 calls java.lang.Runtime.addShutdownHook (shutdown hooks and halt)"),
      inMethod("Runtime.halt", "Runtime.getRuntime().halt(1);",
          "Grab.java:4 calls java.lang.Runtime.halt (shutdown hooks and halt)"),
      inMethod("a native library", "System.loadLibrary(\"evil\");",
          "Grab.java:4 calls java.lang.System.loadLibrary (native code)"),
      inMethod("the platform MBean server (a heap dump is one call away)",
          "java.lang.management.ManagementFactory.getPlatformMBeanServer();",
          "Grab.java:4 calls java.lang.management.ManagementFactory.getPlatformMBeanServer (instrumentation and "
              + "management)"),
      inMethod("a class loader of its own", "new java.net.URLClassLoader(new java.net.URL[0]);",
          "Grab.java:4 creates java.net.URLClassLoader (class loading and compilers)"),
      inMethod("the context class loader", "Thread.currentThread().getContextClassLoader();",
          "Grab.java:4 calls java.lang.Thread.getContextClassLoader (class loading and compilers)"),
      inMethod("a service loader", "java.util.ServiceLoader.load(Runnable.class);",
          "Grab.java:4 calls java.util.ServiceLoader.load (class loading and compilers)"),
      inMethod("the compiler", "javax.tools.ToolProvider.getSystemJavaCompiler();",
          "Grab.java:4 calls javax.tools.ToolProvider.getSystemJavaCompiler (class loading and compilers)"),
      inMethod("the JVM's own standard output", "new java.io.FileOutputStream(java.io.FileDescriptor.out);",
          "Grab.java:4 reads java.io.FileDescriptor.out (the raw standard streams)"),
      inMethod("a class of the grader", "Object s = io.looplab.grader.internal.scoring.VerdictFormat.newKey();",
          "Grab.java:4 calls io.looplab.grader.internal.scoring.VerdictFormat.newKey (the grader and its test "
              + "engine)"),
      inMethod("a class of the report's model", "Object s = io.looplab.report.ExerciseStatus.PASSED;",
          "Grab.java:4 reads io.looplab.report.ExerciseStatus.PASSED (the grader and its test engine)"),
      inMethod("JUnit's assertions", "org.junit.jupiter.api.Assertions.fail(\"no\");",
          "Grab.java:4 calls org.junit.jupiter.api.Assertions.fail (the grader and its test engine)"),
      inMethod("a test's failure, caught and swallowed",
          "try {\n      Runnable.class.getName();\n    } catch (org.opentest4j.AssertionFailedError e) {\n      "
              + "return;\n    }",
          "Grab.java:6 catches org.opentest4j.AssertionFailedError (the grader and its test engine)"),
      new Hostile("a class loader subclass", "package x;\n\npublic class Grab extends ClassLoader {\n}\n",
          "Grab.java declares x.Grab, which extends java.lang.ClassLoader (class loading and compilers)" + WHY),
      new Hostile("a Thread subclass asking for its inherited context class loader", "package x;\npublic class Grab "
          + "extends Thread {\n  void grab() {\n    this.getContextClassLoader();\n  }\n}\n",
          "Grab.java:4 calls x.Grab.getContextClassLoader (class loading and compilers)" + WHY),
      new Hostile("a JUnit annotation on the code's own method", "package x;\npublic class Grab {\n  "
          + "@org.junit.jupiter.api.Test\n  void grab() {\n  }\n}\n",
          "Grab.java declares the method x.Grab.grab, annotated with org.junit.jupiter.api.Test (the grader and its "
              + "test engine)" + WHY));

  @TestFactory
  @DisplayName("each way of reaching for the grader is refused, naming the file, the line and the API")
  Stream<DynamicTest> hostileCodeIsRefused() {
    return HOSTILE.stream().map(h -> dynamicTest(h.name(), () -> {
      Path classes = compile(h.name().replaceAll("\\W+", "-"), h.source());
      assertEquals(Optional.of(h.refusal()), ForbiddenApiCheck.problemWith(classes, CLASS_PATH),
          "the refusal must say where (file:line), what (the API) and why (its reason)");
    }));
  }

  @Test
  @DisplayName("code that only looks like it is accepted: lambdas, method references, records, string "
      + "concatenation, switches, getClass().getSimpleName(), Thread.sleep, java.util.concurrent, Vert.x")
  void lookAlikesAreAccepted() throws IOException {
    Path classes = compile("look-alikes", """
        package x;

        import io.vertx.core.Future;
        import io.vertx.core.Promise;
        import java.util.concurrent.CompletableFuture;
        import java.util.concurrent.ConcurrentHashMap;
        import java.util.function.Function;

        public class Fine {
          record Seat(String row, int number) { }
          enum Colour { RED, GREEN }

          int all(String s, Colour c) throws Exception {
            Runnable r = () -> System.out.println("lambda " + s);
            Function<String, Integer> length = String::length;
            Runnable saved = (Runnable & java.io.Serializable) () -> { };
            Seat seat = new Seat("A", 1);
            assert seat.number() > 0;
            int n = switch (s) { case "a" -> 1; case "b" -> 2; default -> length.apply(s); };
            n += switch (c) { case RED -> 1; case GREEN -> 2; };
            String name = getClass().getSimpleName() + Integer.class.getName() + seat + seat.hashCode();
            if (String.class.isInstance(name) && (Object) seat instanceof Seat other) {
              n += other.row().length();
            }
            Thread.sleep(1);
            new Thread(r).start();
            new ConcurrentHashMap<String, Integer>().merge(s, 1, Integer::sum);
            CompletableFuture.supplyAsync(() -> 1).join();
            Future<Integer> answer = Future.succeededFuture(n).map(x -> x + 1);
            Promise<String> promise = Promise.promise();
            promise.complete(name);
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            try (java.io.StringReader in = new java.io.StringReader(s)) {
              n += in.read();
            } catch (java.io.IOException | RuntimeException e) {
              throw new IllegalStateException(e);
            }
            Colour.valueOf("RED");
            int[][] grid = new int[2][2];
            n += grid[0].clone().length + new String[1].clone().length;
            return n + answer.result() + (int) cpu + Colour.values().length + saved.hashCode();
          }
        }
        """);
    assertEquals(Optional.empty(), ForbiddenApiCheck.problemWith(classes, CLASS_PATH),
        "none of this reaches for the grader: a refusal here would refuse correct submissions");
  }

  @Test
  @DisplayName("a switch on patterns (javac's SwitchBootstraps: Java 17's preview, final from Java 21) is accepted")
  void patternSwitchIsAccepted() throws IOException {
    Path classes = compile("pattern-switch", """
        package x;
        public class Shapes {
          static int sides(Object shape) {
            return switch (shape) {
              case String s -> s.length();
              case Integer i -> i;
              default -> 0;
            };
          }
        }
        """, patternSwitchOptions());
    assertEquals(Optional.empty(), ForbiddenApiCheck.problemWith(classes, CLASS_PATH),
        "SwitchBootstraps.typeSwitch is javac's own bootstrap, not a method handle the code asked for");
  }

  @Test
  @DisplayName("classes are read in the order of their paths: the first file's offence is the one reported")
  void firstOffenceByPath() throws IOException {
    Path sources = work.resolve("two-src");
    Files.createDirectories(sources.resolve("x"));
    Files.writeString(sources.resolve("x/B.java"), "package x;\nclass B {\n  void b() {\n    "
        + "Runtime.getRuntime().halt(2);\n  }\n}\n");
    Files.writeString(sources.resolve("x/A.java"), "package x;\nclass A {\n  void a() throws Exception {\n    "
        + "Class.forName(\"x.B\");\n  }\n}\n");
    Path classes = javac(sources, work.resolve("two-classes"), List.of());
    assertEquals(Optional.of("A.java:4 calls java.lang.Class.forName (reflection)" + WHY),
        ForbiddenApiCheck.problemWith(classes, CLASS_PATH));
  }

  @Test
  @DisplayName("an invokedynamic with a bootstrap javac never emits (built here with ASM) is refused as method handles")
  void foreignBootstrapIsRefused() throws IOException {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "x/Boot", null, "java/lang/Object", null);
    writer.visitSource("Boot.java", null);
    MethodVisitor method = writer.visitMethod(Opcodes.ACC_STATIC, "run", "()V", null, null);
    method.visitCode();
    Label start = new Label();
    method.visitLabel(start);
    method.visitLineNumber(7, start);
    method.visitInvokeDynamicInsn("run", "()V", new Handle(Opcodes.H_INVOKESTATIC, "x/Boot", "bootstrap",
        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;)"
            + "Ljava/lang/invoke/CallSite;", false));
    method.visitInsn(Opcodes.RETURN);
    method.visitMaxs(0, 0);
    method.visitEnd();
    writer.visitEnd();
    Path classes = Files.createDirectories(work.resolve("boot-classes/x"));
    Files.write(classes.resolve("Boot.class"), writer.toByteArray());
    assertEquals(Optional.of("Boot.java:7 uses the bootstrap method x.Boot.bootstrap (method handles)" + WHY),
        ForbiddenApiCheck.problemWith(classes.getParent(), CLASS_PATH),
        "a bootstrap of the code's own is handed a Lookup of its class: method handles in all but name");
  }

  /**
   * On JDK 17 a switch on patterns is a preview of release 17; a later javac previews only its own release and
   * has the feature final from 21, so there it is compiled for the running release instead (a later JDK's
   * javac refuses {@code --release 17 --enable-preview}).
   */
  private static String[] patternSwitchOptions() {
    int feature = Runtime.version().feature();
    return feature == 17 ? new String[] {"--enable-preview"} : new String[] {"--release", String.valueOf(feature)};
  }

  /** Compiles one class, {@code x.NAME} named by its source's first public class, into a folder of its own. */
  private Path compile(String folder, String source, String... options) throws IOException {
    String name = source.replaceAll("(?s).*?public class (\\w+).*", "$1");
    Path sources = work.resolve(folder + "-src");
    Files.createDirectories(sources.resolve("x"));
    Files.writeString(sources.resolve("x/" + name + ".java"), source);
    return javac(sources, work.resolve(folder + "-classes"), List.of(options));
  }

  private static Path javac(Path sources, Path classes, List<String> extra) throws IOException {
    Files.createDirectories(classes);
    List<String> args = new ArrayList<>(List.of("-g", "-proc:none", "-nowarn", "-d",
        classes.toString(), "-classpath", System.getProperty("java.class.path")));
    if (!extra.contains("--release")) {
      args.addAll(List.of("--release", "17"));
    }
    args.addAll(extra);
    try (Stream<Path> walk = Files.walk(sources)) {
      walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int status = javac.run(null, null, errors, args.toArray(String[]::new));
    assertEquals(0, status, "the test's own class must compile: " + errors);
    return classes;
  }
}
