package io.looplab.grader.internal.guard;

import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Verticle;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The confinement detector's judge, called by the learner's classes as {@link ConfinementDetector} rewrote them. A
 * learner's verticle is owned by the context Vert.x starts it on; from then on:
 * <ul>
 *   <li>a write of one of its instance fields from a thread that is not on that context is a violation, unless the
 *       field is volatile, final, or of a type made for threads ({@code java.util.concurrent}, Vert.x shared data);</li>
 *   <li>a read of one of its fields off that context is a violation when the value is a container that is not safe
 *       for threads (a HashMap, an ArrayList, a StringBuilder, an array...): the code then iterates or changes it
 *       off the loop. Reading an immutable value (a String, a number, a config, the Vertx instance) is fine.</li>
 * </ul>
 * "On that context" is the context itself or a duplicate of it (an HTTP handler, a periodic timer), on the event loop
 * of an event-loop context; for a worker or a virtual-thread context, whose tasks run on several threads one at a
 * time, the current context alone decides. The test's own thread is never judged: a test may read the learner's
 * state when it has waited for it. Each field is reported once per verticle.
 *
 * <p>The learner's own objects that a verticle holds (a tally, a cache of the learner's class in one of its fields)
 * belong to the verticle's context too, and are judged the same way: an object of the learner's is held once it is
 * found in a field of the verticle when it starts, or read from or written into a field of an object the context
 * owns, on that context. An object found held by two contexts (handed to two verticles, or sent from one to another
 * over the event bus) is shared on purpose and no longer judged: the detector only flags what it can prove is one
 * context's state.
 *
 * <p>Public only because the rewritten classes call it; nothing else should.
 */
public final class Confinement {

  private static final int SKIP = 1;
  private static final int CHECK = 2;

  /** Containers whose methods are not safe to call from two threads, and StringBuilder. Their subclasses too. */
  private static final Set<String> UNSAFE_CONTAINERS = Set.of("java.util.HashMap", "java.util.LinkedHashMap",
      "java.util.TreeMap", "java.util.IdentityHashMap", "java.util.WeakHashMap", "java.util.EnumMap",
      "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.EnumSet",
      "java.util.RegularEnumSet", "java.util.JumboEnumSet", "java.util.ArrayList", "java.util.LinkedList",
      "java.util.ArrayDeque", "java.util.PriorityQueue", "java.util.BitSet", "java.lang.StringBuilder");

  private static final ClassValue<Boolean> CONTAINER = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      if (type.isArray()) {
        return true;
      }
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        if (UNSAFE_CONTAINERS.contains(c.getName())) {
          return true;
        }
      }
      return false;
    }
  };

  private static final Object registering = new Object();
  /** The rewritten accesses, numbered once per JVM as classes are rewritten: part of the rewrite, not of a test. */
  private static volatile FieldRef[] fields = new FieldRef[64];
  private static int fieldCount;

  private Confinement() {
  }

  // ---- called by rewritten classes -------------------------------------------------------------------------------

  /** At the start of {@code start}, {@code init} or {@code deploy}: a verticle started on a context is owned by it. */
  public static void started(Object self) {
    if (!(self instanceof Deployable) && !(self instanceof Verticle)) {
      return;
    }
    Context current = Vertx.currentContext();
    if (current == null) {
      return; // started by hand, on no context: no owner
    }
    ContextInternal root = ((ContextInternal) current).unwrap();
    GuardSession.ifOpen(session -> session.verticles().started(self, root));
  }

  /**
   * Before a PUTFIELD of a reference that may be one of the learner's objects: judged as {@link #write(Object, int)},
   * and a learner's object written into a field of an object the current context owns is held by that context.
   */
  public static void write(Object object, Object value, int field) {
    write(object, field);
    if (value != null && isLearnersObject(value)) {
      Owner holder = ownerOf(object);
      if (holder != null && holder.isCurrent()) {
        GuardSession.ifOpen(session -> session.verticles().held(value, holder, fields[field].display()));
      }
    }
  }

  /** Before a PUTFIELD on {@code object}. */
  public static void write(Object object, int field) {
    Owner owner = ownerOf(object);
    if (owner == null) {
      return;
    }
    FieldRef ref = fields[field];
    if (ref.writeMode() == SKIP || owner.isCurrent()) {
      return;
    }
    judge(owner, ref, "written", null);
  }

  /** After a GETFIELD on {@code object} that gave {@code value}. */
  public static void read(Object object, Object value, int field) {
    if (value == null) {
      return;
    }
    Owner owner = ownerOf(object);
    if (owner == null) {
      return;
    }
    if (!CONTAINER.get(value.getClass())) {
      if (owner.isCurrent() && isLearnersObject(value)) {
        GuardSession.ifOpen(session -> session.verticles().held(value, owner, fields[field].display()));
      }
      return;
    }
    FieldRef ref = fields[field];
    if (ref.readMode() == SKIP || owner.isCurrent()) {
      return;
    }
    judge(owner, ref, "read", value.getClass());
  }

  // ---- for the detector ------------------------------------------------------------------------------------------

  /** A number for a field access the detector rewrites; the rewritten code passes it back. */
  static int field(ClassLoader loader, String owner, String name, String descriptor) {
    synchronized (registering) {
      FieldRef[] now = fields;
      if (fieldCount == now.length) {
        now = Arrays.copyOf(now, now.length * 2);
      }
      now[fieldCount] = new FieldRef(loader, owner.replace('/', '.'), name);
      fields = now;
      return fieldCount++;
    }
  }

  /**
   * Whether a field of this type may hold one of the learner's own objects (a type of the watched package, or Object):
   * reads and writes of it are told, so that the object is held by the context that reaches it.
   */
  static boolean mayHoldLearnersObject(String descriptor) {
    return descriptor.equals("Ljava/lang/Object;") || descriptor.startsWith("L") && descriptor.endsWith(";")
        && CodeUnderTest.inWatchedPackage(descriptor.substring(1, descriptor.length() - 1).replace('/', '.'));
  }

  /** An object of a class the learner wrote, other than a verticle (verticles are owned when they start). */
  private static boolean isLearnersObject(Object value) {
    Class<?> type = value.getClass();
    return !type.isHidden() && !type.isEnum() && !type.isRecord() && !(value instanceof Verticle)
        && !(value instanceof Deployable) && CodeUnderTest.isLearnersClass(type.getName());
  }

  /** Whether a field of this type may hold a container: the reads worth a call. */
  static boolean mayHoldContainer(String descriptor) {
    return descriptor.startsWith("[")
        || descriptor.startsWith("Ljava/util/") && !descriptor.startsWith("Ljava/util/concurrent/")
        || descriptor.equals("Ljava/lang/Object;") || descriptor.equals("Ljava/lang/StringBuilder;")
        || descriptor.equals("Ljava/lang/CharSequence;") || descriptor.equals("Ljava/lang/Iterable;")
        || descriptor.equals("Ljava/lang/Appendable;");
  }

  // ---- judging ---------------------------------------------------------------------------------------------------

  private static Owner ownerOf(Object object) {
    GuardSession session = GuardSession.current();
    return session == null ? null : session.verticles().ownerOf(object);
  }

  private static void judge(Owner owner, FieldRef ref, String how, Class<?> valueType) {
    Thread thread = Thread.currentThread();
    GuardSession session = GuardSession.current();
    if (session == null || thread == session.testThread() || owner.reported.contains(ref)) {
      return;
    }
    StackTraceElement[] stack = new Throwable().getStackTrace();
    for (StackTraceElement frame : stack) {
      if (frame.getClassName().startsWith("org.junit.")) {
        return; // the test called the learner's code on its own thread
      }
    }
    int learner = CodeUnderTest.firstFrameIndex(stack);
    if (learner >= 0 && calledByTest(stack, learner, owner) || !owner.reported.add(ref)) {
      return;
    }
    StackTraceElement at = learner >= 0 ? stack[learner] : stack[Math.min(2, stack.length - 1)];
    String call = ref.display() + (valueType == null ? "" : " (a " + typeName(valueType) + ")") + " was " + how
        + " by " + LearnersFrame.method(at.getMethodName());
    String what = owner.belongsTo() + ", and this thread was on " + whereNow(owner);
    session.violations().report(new Violation(Violation.Kind.CONFINEMENT, thread.getName(), what,
        LearnersFrame.line(at), call));
  }

  /**
   * Whether the test itself called one of the verticle's own methods (not a callback of the verticle's, such as a
   * lambda given to a fake client) to read its state: a test may do so from its own Vert.x callbacks once it has waited
   * for the answers.
   */
  private static boolean calledByTest(StackTraceElement[] stack, int learner, Owner owner) {
    int outer = learner;
    while (outer + 1 < stack.length && CodeUnderTest.isLearnersClass(stack[outer + 1].getClassName())) {
      outer++;
    }
    if (outer + 1 >= stack.length || stack[outer].getMethodName().startsWith("lambda$")
        || !CodeUnderTest.isTestClass(stack[outer + 1].getClassName())) {
      return false;
    }
    String entered = stack[outer].getClassName();
    for (Owner o = owner; o != null; o = o.holder) {
      Object object = o.object.get();
      for (Class<?> c = object == null ? null : object.getClass(); c != null; c = c.getSuperclass()) {
        if (c.getName().equals(entered)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String whereNow(Owner owner) {
    Context current = Vertx.currentContext();
    ContextInternal root = owner.context.get();
    if (current == null) {
      return "no Vert.x context";
    }
    if (((ContextInternal) current).unwrap() == root) {
      return "the verticle's context but not on its event loop (code inside executeBlocking runs there)";
    }
    return "another Vert.x context than the verticle's";
  }

  private static String typeName(Class<?> type) {
    return type.isArray() ? type.getComponentType().getSimpleName() + "[]" : type.getName();
  }

  /**
   * The verticles of a test class's session and the contexts that own them, and the learner's objects they hold.
   */
  static final class Owners {
    /** The verticles: read without a lock on every rewritten access, so the array is replaced, never changed. */
    private volatile Owner[] owners = new Owner[0];
    /** The learner's objects held by a context, by identity and weakly; {@link #SHARED} once two contexts hold one. */
    private final Map<HeldKey, Owner> held = new ConcurrentHashMap<>();
    private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

    /** A verticle started on {@code root}: its owner from now on, in place of any earlier one. */
    void started(Object self, ContextInternal root) {
      Owner owner;
      synchronized (this) {
        owner = register(self, root);
      }
      holdWhatItHolds(self, owner);
    }

    private Owner register(Object self, ContextInternal root) {
      List<Owner> kept = new ArrayList<>();
      for (Owner o : owners) {
        Object object = o.object.get();
        if (object == self && o.context.get() == root) {
          return o;
        }
        if (object != null && object != self && o.context.get() != null) {
          kept.add(o);
        }
      }
      // Restarted on another context: what it held belonged to the old one.
      held.values().removeIf(o -> o.holder != null && o.holder.object.get() == self);
      Owner owner = new Owner(self, root, Thread.currentThread().getName(), null, null);
      kept.add(owner);
      owners = kept.toArray(new Owner[0]);
      return owner;
    }

    /** The learner's objects in the fields of a verticle as it starts (those set by its constructor). */
    private void holdWhatItHolds(Object self, Owner owner) {
      for (Class<?> c = self.getClass(); c != null && CodeUnderTest.isLearnersClass(c.getName());
           c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
            continue;
          }
          try {
            f.setAccessible(true);
            Object value = f.get(self);
            if (value != null && isLearnersObject(value)) {
              held(value, owner, FieldRef.simpleName(c.getName()) + "." + f.getName());
            }
          } catch (RuntimeException | IllegalAccessException unreadable) {
            // not held: not judged
          }
        }
      }
    }

    /**
     * {@code value} reached on {@code holder}'s context through {@code via}: held by that context from now on, unless
     * another context holds it already, in which case it is shared and judged no more.
     */
    void held(Object value, Owner holder, String via) {
      HeldKey key = new HeldKey(value, null);
      Owner now = held.get(key);
      ContextInternal root = holder.context.get();
      if (now == SHARED || root == null || now != null && now.context.get() == root || find(value) != null) {
        return;
      }
      synchronized (this) {
        for (Reference<?> gone; (gone = collected.poll()) != null; ) {
          held.remove(gone);
        }
        Owner before = held.get(key);
        if (before == null || before != SHARED && before.context.get() == null) {
          held.put(new HeldKey(value, collected), new Owner(value, root, holder.startThread, holder, via));
        } else if (before != SHARED && before.context.get() != root) {
          held.put(new HeldKey(value, collected), SHARED);
        }
      }
    }

    /** The owner of {@code object}, or null when it has none or is shared. */
    Owner ownerOf(Object object) {
      Owner verticle = find(object);
      if (verticle != null || held.isEmpty()) {
        return verticle;
      }
      Owner holder = held.get(new HeldKey(object, null));
      return holder == SHARED ? null : holder;
    }

    private Owner find(Object object) {
      for (Owner o : owners) {
        if (o.object.get() == object) {
          return o;
        }
      }
      return null;
    }
  }

  /** An object as a key by its identity, held weakly. */
  private static final class HeldKey extends WeakReference<Object> {
    private final int hash;

    HeldKey(Object object, ReferenceQueue<Object> queue) {
      super(object, queue);
      this.hash = System.identityHashCode(object);
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      Object mine = get();
      return other instanceof HeldKey key && mine != null && mine == key.get();
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** The mark of an object that two contexts hold: never judged. */
  private static final Owner SHARED = new Owner(new Object(), null, "", null, null);

  /**
   * A verticle, or an object of the learner's that a verticle holds, and the context that owns it; both held weakly,
   * as tests come and go.
   */
  private static final class Owner {
    final WeakReference<Object> object;
    final WeakReference<ContextInternal> context;
    final boolean eventLoop;
    final String startThread;
    final ThreadingModel model;
    /** For a held object: the owner that holds it, and the field it was found in. Null for a verticle. */
    final Owner holder;
    final String via;
    final Set<FieldRef> reported = ConcurrentHashMap.newKeySet();

    Owner(Object object, ContextInternal context, String startThread, Owner holder, String via) {
      this.object = new WeakReference<>(object);
      this.context = new WeakReference<>(context);
      this.eventLoop = context != null && context.isEventLoopContext();
      this.model = context == null ? null : context.threadingModel();
      this.startThread = startThread;
      this.holder = holder;
      this.via = via;
    }

    boolean isCurrent() {
      ContextInternal root = context.get();
      return root == null || CurrentContext.is(root); // its Vert.x gone: nothing left to protect
    }

    String belongsTo() {
      String held = via == null ? "" : "the object is held by " + via + ", and ";
      if (eventLoop) {
        return held + "the verticle belongs to its event loop, " + startThread;
      }
      return held + (model == ThreadingModel.VIRTUAL_THREAD ? "the verticle belongs to its virtual-thread context"
          : "the verticle belongs to its worker context");
    }
  }

  /** A field as the rewritten code names it, resolved on first use. */
  private static final class FieldRef {
    final ClassLoader loader;
    final String owner;
    final String name;
    volatile int writeMode;
    volatile int readMode;
    volatile String display;

    FieldRef(ClassLoader loader, String owner, String name) {
      this.loader = loader;
      this.owner = owner;
      this.name = name;
    }

    int writeMode() {
      if (writeMode == 0) {
        resolve();
      }
      return writeMode;
    }

    int readMode() {
      if (readMode == 0) {
        resolve();
      }
      return readMode;
    }

    String display() {
      if (display == null) {
        resolve();
      }
      return display;
    }

    private void resolve() {
      Field field = null;
      try {
        for (Class<?> c = Class.forName(owner, false, loader); c != null && field == null; c = c.getSuperclass()) {
          for (Field f : c.getDeclaredFields()) {
            if (f.getName().equals(name)) {
              field = f;
              break;
            }
          }
        }
      } catch (Throwable e) {
        // not found: not judged
      }
      if (field == null) {
        display = simpleName(owner) + "." + name;
        readMode = SKIP;
        writeMode = SKIP;
        return;
      }
      int modifiers = field.getModifiers();
      boolean safeType = madeForThreads(field.getType());
      display = simpleName(field.getDeclaringClass().getName()) + "." + name;
      boolean skip = Modifier.isVolatile(modifiers) || Modifier.isStatic(modifiers) || safeType;
      readMode = skip ? SKIP : CHECK;
      writeMode = skip || Modifier.isFinal(modifiers) ? SKIP : CHECK;
    }

    private static boolean madeForThreads(Class<?> type) {
      String name = type.getName();
      return name.startsWith("java.util.concurrent.") || name.startsWith("io.vertx.core.shareddata.");
    }

    private static String simpleName(String className) {
      return className.substring(className.lastIndexOf('.') + 1).replace('$', '.');
    }
  }
}
