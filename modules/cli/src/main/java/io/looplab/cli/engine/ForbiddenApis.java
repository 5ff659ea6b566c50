package io.looplab.cli.engine;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one list of what graded code may not reach, each entry with the short reason shown to the learner. The learner's
 * classes run in the same JVM as the graded tests and the scorer, so each of these is a way to change a grade rather
 * than earn it: to read or rewrite the scorer's state (reflection, method handles, the JDK's internals, a heap dump),
 * to run code outside the tests (another process, a shutdown hook, a native library, an agent, a class loaded by
 * hand), to write on the channel the verdict travels on (the JVM's raw standard output), or to call the grader and the
 * test engine directly. No exercise needs any of them. {@link ForbiddenApiCheck} looks for them in compiled classes.
 *
 * <p>Names are the JVM's internal ones ({@code java/lang/Runtime}, nested types with {@code $}), as class files spell
 * them.
 */
final class ForbiddenApis {

  /** Why an entry is forbidden, in the words the refusal uses. */
  enum Reason {
    REFLECTION("reflection"),
    METHOD_HANDLES("method handles"),
    JDK_INTERNALS("the JDK's internals"),
    PROCESSES("processes"),
    SHUTDOWN("shutdown hooks and halt"),
    NATIVE_CODE("native code"),
    MANAGEMENT("instrumentation and management"),
    CLASS_LOADING("class loading and compilers"),
    STANDARD_STREAMS("the raw standard streams"),
    GRADER("the grader and its test engine");

    final String words;

    Reason(String words) {
      this.words = words;
    }
  }

  /**
   * One forbidden thing: every type in a package ({@code pkg}, by the owner's name alone: {@code java.lang.Class}
   * implements {@code java.lang.reflect.Type}, and that must not make {@code getName()} reflection), a type with its
   * nested types and subtypes ({@code type}: {@code URLClassLoader} is a class loader), or some members of a type
   * and its subtypes ({@code members}: a subclass of Thread inherits {@code getContextClassLoader}).
   */
  record Entry(Reason reason, String name, Kind kind, Set<String> members) {

    enum Kind { PACKAGE, TYPE, MEMBERS }

    boolean matches(String owner, String member, Supertypes supertypes) {
      return switch (kind) {
        case PACKAGE -> owner.startsWith(name);
        case TYPE -> owner.startsWith(name + "$") || supertypes.isOrExtends(owner, name);
        case MEMBERS -> member != null && members.contains(member) && supertypes.isOrExtends(owner, name);
      };
    }

    /** How the refusal names what matched: {@code java.lang.Runtime}, {@code java.lang.Runtime.exec}. */
    static String javaName(String owner, String member) {
      String type = owner.replace('/', '.').replace('$', '.');
      return member == null ? type : type + "." + member;
    }
  }

  private static Entry pkg(String prefix, Reason reason) {
    return new Entry(reason, prefix, Entry.Kind.PACKAGE, Set.of());
  }

  private static Entry type(String name, Reason reason) {
    return new Entry(reason, name, Entry.Kind.TYPE, Set.of());
  }

  private static Entry members(String type, Reason reason, String... names) {
    return new Entry(reason, type, Entry.Kind.MEMBERS, Set.of(names));
  }

  /** The list, checked in this order; the first entry that matches names the reason. */
  static final List<Entry> FORBIDDEN = List.of(
      // Reflection: reads and writes any field, calls any method, of the scorer too. Class's harmless methods
      // (getName, getSimpleName, isInstance, cast, desiredAssertionStatus for `assert`) stay allowed.
      pkg("java/lang/reflect/", Reason.REFLECTION),
      members("java/lang/Class", Reason.REFLECTION, "forName", "getDeclaredField", "getDeclaredFields",
          "getDeclaredMethod", "getDeclaredMethods", "getDeclaredConstructor", "getDeclaredConstructors", "getField",
          "getFields", "getMethod", "getMethods", "getConstructor", "getConstructors", "getClassLoader",
          "newInstance", "getDeclaredClasses", "getEnclosingMethod", "getEnclosingConstructor",
          "getRecordComponents"),
      // Method handles: reflection by another name. javac's own invokedynamic bootstraps are judged apart
      // (ALLOWED_BOOTSTRAPS), by what they are handed.
      pkg("java/lang/invoke/", Reason.METHOD_HANDLES),
      // Instrumentation, attach and management: an agent rewrites any class, a heap dump reads the grader's memory.
      pkg("java/lang/instrument/", Reason.MANAGEMENT),
      pkg("java/lang/management/", Reason.MANAGEMENT),
      pkg("javax/management/", Reason.MANAGEMENT),
      pkg("com/sun/management/", Reason.MANAGEMENT),
      pkg("com/sun/tools/attach/", Reason.MANAGEMENT),
      // The JDK's internals: Unsafe writes any memory.
      pkg("sun/", Reason.JDK_INTERNALS),
      pkg("jdk/internal/", Reason.JDK_INTERNALS),
      pkg("com/sun/", Reason.JDK_INTERNALS),
      // Processes: another program is out of the tests' sight, and can rewrite the grader's files.
      type("java/lang/ProcessBuilder", Reason.PROCESSES),
      type("java/lang/Process", Reason.PROCESSES),
      type("java/lang/ProcessHandle", Reason.PROCESSES),
      members("java/lang/Runtime", Reason.PROCESSES, "exec"),
      // Code that runs after the tests, when the verdict is written, or ends the JVM without its shutdown.
      members("java/lang/Runtime", Reason.SHUTDOWN, "addShutdownHook", "removeShutdownHook", "halt"),
      // Native code does anything, unseen; java.lang.foreign is its newer door (Java 22+).
      members("java/lang/System", Reason.NATIVE_CODE, "load", "loadLibrary"),
      members("java/lang/Runtime", Reason.NATIVE_CODE, "load", "loadLibrary"),
      pkg("java/lang/foreign/", Reason.NATIVE_CODE),
      // Class loaders and compilers: code that was never checked here, or the grader's classes loaded anew.
      type("java/lang/ClassLoader", Reason.CLASS_LOADING),
      members("java/lang/Thread", Reason.CLASS_LOADING, "getContextClassLoader", "setContextClassLoader"),
      type("java/util/ServiceLoader", Reason.CLASS_LOADING),
      pkg("javax/tools/", Reason.CLASS_LOADING),
      pkg("jdk/jshell/", Reason.CLASS_LOADING),
      pkg("javax/script/", Reason.CLASS_LOADING),
      // The grader's verdict travels on the JVM's own standard output; System.out is pointed elsewhere for the code.
      members("java/io/FileDescriptor", Reason.STANDARD_STREAMS, "out", "err", "in"),
      // The grader, the test engine and the libraries they run with: nothing to call from an exercise's code.
      pkg("io/looplab/grader/", Reason.GRADER),
      pkg("io/looplab/report/", Reason.GRADER),
      pkg("org/junit/", Reason.GRADER),
      pkg("org/opentest4j/", Reason.GRADER),
      pkg("io/vertx/junit5/", Reason.GRADER),
      pkg("reactor/blockhound/", Reason.GRADER),
      pkg("net/bytebuddy/", Reason.GRADER));

  /**
   * Members of forbidden packages that are harmless and that code of the kit uses: the current thread's own CPU clock
   * (a mutant spins 100 ms of CPU time, whatever the machine's load), and SerializedLambda, which javac's
   * {@code $deserializeLambda$} reads for a serializable lambda.
   */
  static final Map<String, Set<String>> ALLOWED_MEMBERS = Map.of(
      "java/lang/management/ManagementFactory", Set.of("getThreadMXBean"),
      "java/lang/management/ThreadMXBean", Set.of("getCurrentThreadCpuTime", "getCurrentThreadUserTime",
          "isCurrentThreadCpuTimeSupported"),
      "java/lang/invoke/SerializedLambda", Set.of("getCapturingClass", "getFunctionalInterfaceClass",
          "getFunctionalInterfaceMethodName", "getFunctionalInterfaceMethodSignature", "getImplClass",
          "getImplMethodName", "getImplMethodSignature", "getImplMethodKind", "getInstantiatedMethodType",
          "getCapturedArg", "getCapturedArgCount"));

  /**
   * The invokedynamic bootstraps javac emits on its own: lambdas and method references, string concatenation,
   * records' equals/hashCode/toString, switches on patterns. What they are handed is checked like any reference.
   */
  static final Map<String, Set<String>> ALLOWED_BOOTSTRAPS = Map.of(
      "java/lang/invoke/LambdaMetafactory", Set.of("metafactory", "altMetafactory"),
      "java/lang/invoke/StringConcatFactory", Set.of("makeConcatWithConstants", "makeConcat"),
      "java/lang/runtime/ObjectMethods", Set.of("bootstrap"),
      "java/lang/runtime/SwitchBootstraps", Set.of("typeSwitch", "enumSwitch"));

  private ForbiddenApis() {
  }

  /**
   * Why a reference to {@code owner} (a type), or to its {@code member} (a field or method; null for the type alone),
   * is forbidden, or empty when it is not.
   */
  static Optional<Reason> reasonFor(String owner, String member, Supertypes supertypes) {
    if (member != null && ALLOWED_MEMBERS.getOrDefault(owner, Set.of()).contains(member)) {
      return Optional.empty();
    }
    return FORBIDDEN.stream().filter(e -> e.matches(owner, member, supertypes)).map(Entry::reason).findFirst();
  }

  static boolean isAllowedBootstrap(String owner, String name) {
    return ALLOWED_BOOTSTRAPS.getOrDefault(owner, Set.of()).contains(name);
  }
}
