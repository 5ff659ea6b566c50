package io.looplab.grader.internal.guard;

import io.looplab.grader.guard.GivenCode;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.security.CodeSource;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Which stack frames belong to the code being graded: the classes compiled from the learner's sources. That is
 * decided by where a class was loaded from: a class of the test's package (or below it) is the learner's when it did
 * not come from the folder or jar the graded test itself was loaded from (Maven's {@code test-classes}, the grading
 * JVM's own folder of compiled tests), unless the test declares it {@link GivenCode given}. So a test's fixtures and
 * fakes can live in files of their own, whatever their names. Reports name the
 * innermost such frame, because that is the learner's line; when the trouble is inside code the learner did not
 * write (given code, the test's fakes, Vert.x, the JDK), they also name the call the learner's line made into it:
 * the one rule every report follows, see {@link #callSite}.
 */
public final class CodeUnderTest {

  /** The watched packages, each as "name.": the test's own, and any its {@code GuardOptions} add. */
  private static volatile List<String> packagePrefixes = List.of();
  private static volatile ClassLoader loader = CodeUnderTest.class.getClassLoader();
  /** Where the graded test was loaded from: classes from there are the test's, never the learner's. */
  private static volatile URL testLocation;
  /** Given class name to what a call into it is ("" when the test gave no words). */
  private static volatile Map<String, String> given = Map.of();
  /** See {@link CountAsLearners}: the library's own tests only. */
  private static volatile Set<String> declaredLearners = Set.of();
  /** Top-level class name to whether it is the learner's; loading a class to find its origin is not free. */
  private static final Map<String, Boolean> learners = new ConcurrentHashMap<>();

  private CodeUnderTest() {
  }

  /** Watches the package of {@code testClass}, minus the classes its {@link GivenCode} annotations name. */
  static void watch(Class<?> testClass) {
    watch(testClass, List.of());
  }

  /**
   * Watches the package of {@code testClass} and {@code morePackages} (with the packages below each), minus the
   * classes its {@link GivenCode} annotations name.
   */
  static void watch(Class<?> testClass, List<String> morePackages) {
    Map<String, String> declared = new HashMap<>();
    for (GivenCode code : testClass.getAnnotationsByType(GivenCode.class)) {
      declared.put(code.value().getName(), code.is());
    }
    given = Map.copyOf(declared);
    CountAsLearners learnersHere = testClass.getAnnotation(CountAsLearners.class);
    declaredLearners = learnersHere == null ? Set.of()
        : Arrays.stream(learnersHere.value()).map(Class::getName).collect(Collectors.toUnmodifiableSet());
    loader = testClass.getClassLoader();
    testLocation = locationOf(testClass);
    learners.clear();
    List<String> prefixes = new java.util.ArrayList<>();
    prefixes.add(prefixOf(testClass.getPackageName()));
    morePackages.stream().map(CodeUnderTest::prefixOf).forEach(prefixes::add);
    packagePrefixes = prefixes.stream().filter(p -> !p.isEmpty()).distinct().toList();
  }

  /** Watches a package without a test class: every class of it counts as the learner's (benchmarks). */
  static void watchPackage(String packageName) {
    testLocation = null;
    learners.clear();
    packagePrefixes = packageName.isEmpty() ? List.of() : List.of(prefixOf(packageName));
  }

  private static String prefixOf(String packageName) {
    return packageName.isEmpty() ? "" : packageName + ".";
  }

  static boolean isWatched(StackTraceElement frame) {
    return isLearnersClass(frame.getClassName());
  }

  /**
   * True for a class the learner wrote: in the test's package, loaded from elsewhere than the test, and not given
   * code. The one rule for "the learner's code", used by the guard and by the failure messages alike.
   */
  public static boolean isLearnersClass(String className) {
    return inWatchedPackage(className) && givenType(className) == null
        && learners.computeIfAbsent(topLevel(className), CodeUnderTest::compiledFromLearnersSources);
  }

  /** Whether {@code className} is in the watched package: a class the learner may have written (a cheap first test). */
  static boolean inWatchedPackage(String className) {
    for (String prefix : packagePrefixes) {
      if (className.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link #isLearnersClass} for a class the JVM is defining right now, which cannot be loaded to ask where it came
   * from: {@code location} is its code source, as a class file transformer is given it. The same rule.
   */
  static boolean isLearnersClassFrom(String className, URL location) {
    if (!inWatchedPackage(className) || givenType(className) != null) {
      return false;
    }
    if (declaredLearners.contains(topLevel(className)) || testLocation == null) {
      return true;
    }
    return location != null && !location.equals(testLocation);
  }

  private static boolean compiledFromLearnersSources(String topLevelName) {
    if (declaredLearners.contains(topLevelName)) {
      return true;
    }
    if (testLocation == null) {
      return true;
    }
    Class<?> type = load(topLevelName);
    URL location = type == null ? null : locationOf(type);
    return location != null && !location.equals(testLocation);
  }

  /** True for a class loaded from where the graded test was: the test itself, its fixtures and fakes. */
  static boolean isTestClass(String className) {
    URL where = testLocation;
    if (where == null) {
      return false;
    }
    Class<?> type = load(topLevel(className));
    return type != null && where.equals(locationOf(type));
  }

  private static String topLevel(String className) {
    int nested = className.indexOf('$');
    return nested < 0 ? className : className.substring(0, nested);
  }

  private static URL locationOf(Class<?> type) {
    try {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      return source == null ? null : source.getLocation();
    } catch (SecurityException e) {
      return null;
    }
  }

  /** True for a class a graded test declared as {@link GivenCode given} (or one nested in it). */
  public static boolean isGivenClass(String className) {
    return givenType(className) != null;
  }

  /** The given class that {@code className} is or is nested in, or null. */
  private static String givenType(String className) {
    Map<String, String> declared = given;
    for (String name = className; ; name = name.substring(0, name.lastIndexOf('$'))) {
      if (declared.containsKey(name)) {
        return name;
      }
      if (name.lastIndexOf('$') < 0) {
        return null;
      }
    }
  }

  /** Index of the first (innermost) frame of the code under test, or -1. */
  static int firstFrameIndex(StackTraceElement[] stack) {
    return firstFrameIndex(stack, 0);
  }

  static int firstFrameIndex(StackTraceElement[] stack, int from) {
    for (int i = Math.max(0, from); i < stack.length; i++) {
      if (isWatched(stack[i])) {
        return i;
      }
    }
    return -1;
  }

  public static Optional<String> firstFrame(StackTraceElement[] stack) {
    int i = firstFrameIndex(stack);
    return i < 0 ? Optional.empty() : Optional.of(LearnersFrame.line(stack[i]));
  }

  /**
   * Where the learner's code is on a stack, and the call it made from there into code it did not write.
   *
   * @param learnerFrame the innermost frame of the learner's code
   * @param call         the outermost call from that frame into other code, named after the type the learner calls
   *                     ({@code LegacyAccounts.ownerOf}, {@code Files.readString}), or null when the learner's own
   *                     frame is where it happens (it called the blocking JDK method itself, or it is spinning)
   * @param callWords    what that call is, from a {@link GivenCode} annotation, or ""
   */
  public record CallSite(StackTraceElement learnerFrame, String call, String callWords) {

    /** {@code File.java:line} of the learner's frame. */
    public String where() {
      return LearnersFrame.line(learnerFrame);
    }

    /** The learner's method, as a learner names it: {@code account()}, {@code a lambda in start()}. */
    public String method() {
      return LearnersFrame.method(learnerFrame.getMethodName());
    }

    /** "LegacyAccounts.ownerOf (words), called from account()", or null for a direct call. */
    public String callFrom() {
      if (call == null) {
        return null;
      }
      return call + (callWords.isEmpty() ? "" : " (" + callWords + ")") + LearnersFrame.CALLED_FROM + method();
    }

    /** The whole call site in one phrase: "LegacyAccounts.ownerOf (...), called from account() at X.java:9". */
    @Override
    public String toString() {
      return call == null ? LearnersFrame.methodAndLine(learnerFrame) : callFrom() + " at " + where();
    }
  }

  /**
   * The call site of the current thread's learner code: for a test's fake that wants to say who called it, in the
   * guard's own words. Empty when no learner code is on the stack.
   */
  public static Optional<CallSite> callSiteHere() {
    return callSiteOf(new Throwable().getStackTrace());
  }

  /** The call site of the learner's code on a stack recorded earlier (where a timer was set, say); empty if none. */
  public static Optional<CallSite> callSiteOf(StackTraceElement[] stack) {
    int learner = firstFrameIndex(stack);
    return learner < 0 ? Optional.empty() : Optional.of(callSite(stack, learner, 0, true));
  }

  /**
   * The call site of the learner frame at {@code learner}. The frame just above it (the learner's callee) is the
   * outermost call into code the learner did not write; when that callee is the frame at {@code innermost} or above
   * (the blocking JDK method itself, the top of a stalled stack), the learner's own line is the place and there is no
   * separate call to name. With {@code nameJdk} false, a call into the JDK is not named either: a stack sampled
   * during a long computation often catches the learner's loop inside some quick JDK method it calls.
   */
  static CallSite callSite(StackTraceElement[] stack, int learner, int innermost, boolean nameJdk) {
    int callee = learner - 1;
    if (callee < 0 || callee <= innermost && !isGivenFrame(stack[callee])
        || !nameJdk && isJdk(stack[callee].getClassName())) {
      return new CallSite(stack[learner], null, "");
    }
    StackTraceElement frame = stack[callee];
    String type = publicFace(frame.getClassName(), frame.getMethodName());
    String words = given.getOrDefault(type, "");
    String method = frame.getMethodName();
    String call = displayName(type) + "." + (method.startsWith("lambda$") ? "<lambda>" : method);
    return new CallSite(stack[learner], call, words == null ? "" : words);
  }

  private static boolean isJdk(String className) {
    return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
        || className.startsWith("sun.") || className.startsWith("com.sun.");
  }

  private static boolean isGivenFrame(StackTraceElement frame) {
    return givenType(frame.getClassName()) != null;
  }

  /**
   * The type a learner calls {@code method} through: a given type if one declares it (a test's fake is named after
   * the interface it implements), else the class itself when it is a public API class, else its nearest public
   * superclass or interface that declares the method (an implementation class such as {@code FileSystemImpl} is
   * named {@code FileSystem}).
   */
  private static String publicFace(String className, String method) {
    String givenHere = givenType(className);
    if (givenHere != null && !isTestClass(className)) {
      return givenHere;
    }
    Class<?> type = load(className);
    if (type == null) {
      return className;
    }
    Deque<Class<?>> queue = new ArrayDeque<>();
    Set<Class<?>> seen = new HashSet<>();
    queue.add(type);
    String apiFace = null;
    while (!queue.isEmpty()) {
      Class<?> c = queue.poll();
      if (!seen.add(c) || c == Object.class) {
        continue;
      }
      if (declares(c, method)) {
        if (given.containsKey(c.getName())) {
          return c.getName();
        }
        if (apiFace == null && isApi(c)) {
          apiFace = c.getName();
        }
      }
      if (c.getSuperclass() != null) {
        queue.add(c.getSuperclass());
      }
      queue.addAll(java.util.Arrays.asList(c.getInterfaces()));
    }
    return apiFace != null ? apiFace : className;
  }

  private static boolean declares(Class<?> type, String method) {
    try {
      for (Method m : type.getDeclaredMethods()) {
        if (m.getName().equals(method)) {
          return true;
        }
      }
    } catch (Throwable e) {
      // a class that cannot be inspected: not a face to name
    }
    return false;
  }

  private static boolean isApi(Class<?> type) {
    String name = type.getName();
    return Modifier.isPublic(type.getModifiers()) && !isTestClass(name) && !type.isSynthetic()
        && !name.startsWith("sun.") && !name.startsWith("jdk.") && !name.startsWith("com.sun.")
        && !name.contains(".impl.") && !name.contains(".internal.");
  }

  private static Class<?> load(String className) {
    for (ClassLoader l : new ClassLoader[] {loader, Thread.currentThread().getContextClassLoader(),
        CodeUnderTest.class.getClassLoader()}) {
      try {
        return Class.forName(className, false, l);
      } catch (Throwable e) {
        // try the next loader
      }
    }
    return null;
  }

  /** {@code io.looplab.blocking.QuoteVerticle$Cache} as {@code QuoteVerticle.Cache}. */
  private static String displayName(String className) {
    String simple = className.substring(className.lastIndexOf('.') + 1);
    return simple.replace('$', '.');
  }

  /**
   * True when the JVM is loading or linking a class above the learner's frame. The first call of a path in a
   * cold JVM can spend tens of milliseconds there; that is the JVM warming up, not the learner's mistake.
   */
  static boolean isWarmingUp(StackTraceElement[] stack, int upTo) {
    for (int i = 0; i < upTo && i < stack.length; i++) {
      String c = stack[i].getClassName();
      String m = stack[i].getMethodName();
      if (c.startsWith("jdk.internal.loader.") || c.startsWith("java.lang.invoke.")
          // BlockHound rewrites JDK classes as they load, through the instrumentation agent
          || c.startsWith("sun.instrument.") || c.startsWith("java.lang.instrument.") || c.startsWith("reactor.blockhound.shaded.")
          || c.equals("java.lang.ClassLoader") || c.startsWith("java.util.zip.") || c.startsWith("java.util.jar.")
          || m.equals("<clinit>") || m.equals("loadClass") || m.equals("defineClass") || m.equals("findClass")) {
        return true;
      }
    }
    return false;
  }
}
