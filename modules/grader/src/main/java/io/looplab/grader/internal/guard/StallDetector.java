package io.looplab.grader.internal.guard;

import io.vertx.core.impl.VertxThread;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;

import java.lang.management.ThreadInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns Vert.x's blocked-thread checker into a failing check for stalls. The guard sets the checker's limit to half
 * the stall limit and its period to 10 ms, so this handler hears about a long task early, on the checker's own
 * thread, while the loop's stack still shows the learner's line.
 *
 * <p>A task that has run for the stall limit is a stall when the loop's thread shows evidence that it is the task's
 * doing, and not the machine's:
 * <ul>
 *   <li><b>it waits</b>: on two checks in a row (10 ms apart) it was BLOCKED entering a monitor, WAITING or
 *       TIMED_WAITING (parked, sleeping), or inside native I/O, below a frame of the learner's code, and it used
 *       next to no CPU in between. For a monitor, the thread holding it must be keeping it too: waiting itself, or
 *       computing; a holder that was only descheduled is the machine's doing. Such a thread needs no CPU evidence of its task; BlockHound misses monitor entry
 *       and unmarked native I/O, and this is what catches them. A wait inside a thread pool's {@code execute} (its
 *       queue's lock, held for moments by the pool's own threads) is the pool's, not evidence against the learner;</li>
 *   <li><b>it computes</b>: the thread really spent that time on the CPU: half the stall limit of CPU time after the
 *       task was first seen, or last seen loading or initialising a class (the JVM running library code for the
 *       first time is not the learner's work). On a shared, busy machine a runnable thread can be descheduled for a hundred
 *       milliseconds without doing anything wrong; wall-clock time alone would blame the learner for that, and so
 *       would a share of a short window (a correct start() of 2 ms of CPU, stretched to 204 ms by a crowded machine,
 *       ran 2 ms of it in one 20 ms stretch and was reported, in CI). A task that keeps computing reaches the CPU
 *       time however little of a core it gets; a task that does not was the machine's.</li>
 * </ul>
 * A task's time leaves out the JVM's garbage-collection pauses ({@link GcPauses}): while the JVM is stopped, the task
 * does nothing.
 */
final class StallDetector implements Detector {

  /**
   * The share of a check's interval that a thread must spend on the CPU to count as running in it, not waiting: a
   * loop that is descheduled, throttled with the rest of its container, or parked inside the JVM gains next to none;
   * a spinning loop is near 1 on an idle machine and still gets a sixth of a core at a load average of 12 on 2 cores.
   * So the line is drawn low.
   */
  private static final double MIN_CPU_SHARE = 0.1;

  /** How many checks in a row must find the loop waiting, below the learner's code, before it is blamed. */
  private static final int MIN_WAITING_SIGHTINGS = 2;

  /**
   * What was seen of the current long task of each loop: when it started, its CPU time when first seen (or last
   * seen warming up), how many
   * checks in a row have found it waiting, and the time and CPU time of the last check.
   */
  private record Sighting(long taskStart, long firstCpuNanos, int waiting, long tickNanos, long tickCpuNanos,
                          boolean reported, CpuBySite spent) {

    Sighting reportedNow() {
      return new Sighting(taskStart, firstCpuNanos, waiting, tickNanos, tickCpuNanos, true, spent);
    }
  }

  /**
   * Where a task's CPU time went, by the learner's line the loop was found at: the CPU used since the check before
   * goes to the line of this check (a sample every 10 ms). A stall is named at the line that took the most, not at
   * wherever the loop happens to be when the judgment falls (a heavy computation, then a cheap call, is the
   * computation's stall). Only the checker's thread touches it, one task at a time.
   */
  private static final class CpuBySite {
    private final Map<String, Long> nanos = new java.util.LinkedHashMap<>();
    private final Map<String, CodeUnderTest.CallSite> sites = new java.util.HashMap<>();

    void add(CodeUnderTest.CallSite site, long cpuNanos) {
      if (cpuNanos > 0) {
        nanos.merge(site.where(), cpuNanos, Long::sum);
        sites.putIfAbsent(site.where(), site);
      }
    }

    void clear() {
      nanos.clear();
      sites.clear();
    }

    /** The site that took the most CPU, if it took more than {@code now} did; else {@code now}. */
    CodeUnderTest.CallSite heaviestOr(CodeUnderTest.CallSite now) {
      String heaviest = nanos.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
          .orElse(null);
      if (heaviest == null || heaviest.equals(now.where())
          || nanos.get(heaviest) <= nanos.getOrDefault(now.where(), 0L)) {
        return now;
      }
      return sites.get(heaviest);
    }
  }

  /** For a loop seen BLOCKED: the thread holding the monitor it waits for, and that thread's CPU time then. */
  private record Holder(long threadId, long cpuNanos) {
  }

  private final Map<Thread, Sighting> sightings = new ConcurrentHashMap<>();
  private final Map<Thread, Holder> holders = new ConcurrentHashMap<>();
  private final long stallNanos = GuardSettings.stallMillis() * 1_000_000;
  /** How long a reported stall's task may go on before its loop counts as stuck ({@link StuckLoops}). */
  private final long stuckNanos = Math.max(GuardSettings.stuckMillis(), GuardSettings.stallMillis()) * 1_000_000;
  /** The loops this detector found stuck, with the task each was stuck in, so that each is reported once. */
  private final Map<Thread, Long> stuck = new ConcurrentHashMap<>();
  private final GcPauses pauses = GcPauses.instance();
  private final ThreadReadings readings;

  StallDetector() {
    this(ThreadReadings.jvm());
  }

  StallDetector(ThreadReadings readings) {
    this.readings = readings;
    // The first CPU-time reading sets up the JVM's management beans; pay for it now, not on the checker's thread.
    readings.cpuNanos(Thread.currentThread().getId());
  }

  @Override
  public String name() {
    return "stall detection";
  }

  /**
   * Listens to the instance's blocked-thread checker, with a detector of the instance's own: what it has seen is of
   * that instance's loops. Off in debug mode, where a breakpoint looks just like a stall.
   */
  @Override
  public void watch(VertxInternal vertx) {
    if (!GuardSettings.debug()) {
      vertx.blockedThreadChecker().setThreadBlockedHandler(new StallDetector()::onBlocked);
    }
  }

  void onBlocked(BlockedThreadEvent event) {
    if (!(event.thread() instanceof VertxThread thread) || thread.isWorker()) {
      return; // worker threads exist to block
    }
    long taskStart = readings.taskStart(thread);
    long now = readings.nanoTime();
    Sighting known = sightings.get(thread);
    if (known != null && known.reported() && known.taskStart() == taskStart && taskStart != 0) {
      // Reported already: all that is left to learn is whether the task ends. No stack is taken: a loop stuck for
      // good is still checked a hundred times a second, for as long as the JVM lives.
      if (!Long.valueOf(taskStart).equals(stuck.get(thread))
          && event.duration() - pauses.pausedBetween(taskStart, now) >= stuckNanos) {
        stuck.put(thread, taskStart);
        GuardSession.ifOpen(session -> session.stuckLoops().report(thread, taskStart));
      }
      return;
    }
    long cpu = readings.cpuNanos(thread.getId());
    // State and stack in one snapshot, so that "BLOCKED" and the frames it is blocked in agree.
    ThreadInfo info = readings.info(thread.getId());
    if (info == null) {
      return;
    }
    StackTraceElement[] stack = info.getStackTrace();
    int learnerFrame = CodeUnderTest.firstFrameIndex(stack);
    boolean vertxsOwnLock = isVertxsOwnLock(info, stack);
    String waiting = learnerFrame < 0 || BlockingCalls.isHandingTaskToPool(stack, learnerFrame) || vertxsOwnLock
        ? null : waitingEvidence(info, stack);
    Sighting seen = sightings.get(thread);
    if (seen == null || seen.taskStart() != taskStart) {
      // The first sighting of this task gives the baselines for its CPU time, and may be its first wait.
      sightings.put(thread, new Sighting(taskStart, cpu, waiting == null ? 0 : 1, now, cpu, false, new CpuBySite()));
      return;
    }
    // Waiting in a row means: found waiting now and at the last check, and next to no CPU used in between. A loop
    // that only brushes past a busy monitor (a hot counter shared by several loops) runs between the checks.
    boolean idleSinceLastCheck = cpu < 0 || cpu - seen.tickCpuNanos() < MIN_CPU_SHARE * running(seen.tickNanos(), now);
    boolean holderAccountable = holderIsAccountable(thread, info, now - seen.tickNanos());
    int waitingInARow = waiting == null ? 0 : idleSinceLastCheck && holderAccountable ? seen.waiting() + 1 : 1;
    // A loop found loading or initialising a class is the JVM's first run of that code, not the learner's work: what
    // the task computed so far does not count, and its CPU time is counted afresh from here (a cold JVM's first
    // HttpServer.listen: about 95 ms of CPU and 370 classes, on the loop, below a correct start()).
    boolean warmingUp = learnerFrame >= 0 && CodeUnderTest.isWarmingUp(stack, learnerFrame);
    long cpuBaseline = warmingUp && cpu >= 0 ? cpu : seen.firstCpuNanos();
    if (warmingUp) {
      seen.spent().clear();
    } else if (learnerFrame >= 0 && cpu >= 0 && seen.tickCpuNanos() >= 0 && !seen.reported()) {
      seen.spent().add(CodeUnderTest.callSite(stack, learnerFrame, 0, false), cpu - seen.tickCpuNanos());
    }
    seen = new Sighting(seen.taskStart(), cpuBaseline, waitingInARow, now, cpu, seen.reported(), seen.spent());
    sightings.put(thread, seen);
    if (seen.reported() || taskStart == 0 || event.duration() < stallNanos) {
      return;
    }
    if (learnerFrame < 0 || warmingUp || vertxsOwnLock) {
      // not the code under test, the JVM loading classes, or a wait on Vert.x's own lock (whatever CPU the task
      // used before it, it is not computing now): ask again on the next tick
      return;
    }
    // The task's own time leaves out the JVM's garbage-collection pauses, during which nothing ran; a pause that has
    // ended but is not yet announced makes the judgment wait for the next check.
    if (!pauses.settled()) {
      return;
    }
    long paused = pauses.pausedBetween(taskStart, now);
    long taskNanos = event.duration() - paused;
    if (taskNanos < stallNanos) {
      return;
    }
    String length = taskNanos / 1_000_000 + " ms and counting (the limit is " + stallNanos / 1_000_000 + " ms"
        + (paused >= 1_000_000 ? "; the " + paused / 1_000_000 + " ms the JVM spent collecting garbage not counted" : "")
        + ")";
    if (waiting != null && waitingInARow >= MIN_WAITING_SIGHTINGS) {
      markReported(thread, seen);
      CodeUnderTest.CallSite site = CodeUnderTest.callSite(stack, learnerFrame, 0, true);
      String what = "one task kept the loop waiting for " + length + ": it was " + waiting;
      GuardSession.report(site.call() == null
          ? new Violation(Violation.Kind.WAITING_STALL, thread.getName(), what + ", in " + site.method(), site.where())
          : new Violation(Violation.Kind.WAITING_STALL, thread.getName(), what, site.where(), site.callFrom()));
      return;
    }
    if (waiting != null || cpu >= 0 && !isComputing(seen, cpu)) {
      return;
    }
    markReported(thread, seen);
    CodeUnderTest.CallSite site = seen.spent().heaviestOr(CodeUnderTest.callSite(stack, learnerFrame, 0, false));
    String what = "one task kept the loop busy for " + length;
    GuardSession.report(site.call() == null
        ? new Violation(Violation.Kind.STALL, thread.getName(), what + ", running " + site.method(), site.where())
        : new Violation(Violation.Kind.STALL, thread.getName(), what, site.where(), site.callFrom()));
  }

  /**
   * For a loop BLOCKED on a monitor: whether the thread holding it is keeping it, rather than being kept off a core
   * by a crowded machine. A holder that waits itself (sleeps, parks, does blocking I/O or waits for another monitor)
   * or that computed since the last check is holding the lock for real; one that is runnable but got no CPU was
   * descheduled while it held a lock for a moment, which no design can prevent (seen under load: two event loops of
   * a correct design, one blocked for 70 ms on a ConcurrentHashMap bin the other held). Not BLOCKED: true.
   */
  private boolean holderIsAccountable(Thread loop, ThreadInfo info, long sinceLastCheckNanos) {
    long owner = info.getThreadState() == Thread.State.BLOCKED ? info.getLockOwnerId() : -1;
    if (owner < 0) {
      holders.remove(loop);
      return true;
    }
    long ownerCpu = readings.cpuNanos(owner);
    Holder before = holders.put(loop, new Holder(owner, ownerCpu));
    ThreadInfo holder = readings.info(owner);
    if (holder == null || ownerCpu < 0) {
      return true; // it has just ended, or the JVM cannot tell its CPU time: nothing says the machine is to blame
    }
    boolean waitsItself = holder.getThreadState() != Thread.State.RUNNABLE || holder.isInNative();
    boolean computed = before != null && before.threadId() == owner
        && ownerCpu - before.cpuNanos() >= MIN_CPU_SHARE * sinceLastCheckNanos;
    return waitsItself || computed;
  }

  /** The wall time from {@code from} to {@code to} that the JVM was not paused for garbage collection. */
  private long running(long from, long to) {
    return to - from - pauses.pausedBetween(from, to);
  }

  private void markReported(Thread thread, Sighting seen) {
    sightings.put(thread, seen.reportedNow());
  }

  /** What the loop is waiting for, in words, or null when it is runnable (computing, or descheduled). */
  static String waitingEvidence(ThreadInfo info, StackTraceElement[] stack) {
    StackTraceElement top = stack.length == 0 ? null : stack[0];
    String owner = info.getLockOwnerName() == null ? "" : ", which thread " + info.getLockOwnerName() + " held";
    String lock = lockInWords(info.getLockName());
    switch (info.getThreadState()) {
      case BLOCKED:
        return "blocked entering a synchronized block or method, waiting for the monitor of " + lock + owner;
      case WAITING:
      case TIMED_WAITING:
        String on = info.getLockName() == null ? "" : ", on " + lock + owner;
        return "in " + (top == null ? "a wait" : BlockingCalls.describe(top.getClassName() + "." + top.getMethodName()))
            + on;
      case RUNNABLE:
        // Native I/O counts only outside Netty and Vert.x: their socket writes are non-blocking, and a loop found
        // inside one on two checks was only descheduled (seen under load, in FileDispatcherImpl.write0 below
        // RoutingContext.json). Blocking native I/O of the learner's code is caught by BlockHound at the call.
        if (top != null && info.isInNative() && BlockingCalls.isNativeIo(top) && !insideVertxOrNetty(stack)) {
          return "in " + BlockingCalls.describe(top.getClassName() + "." + top.getMethodName());
        }
        return null;
      default:
        return null;
    }
  }

  /**
   * A loop BLOCKED entering a monitor inside Vert.x's or Netty's own code, held by a thread that is itself inside
   * their code: their lock, not the learner's (seen: four edge instances binding one port wait in HttpServer.listen
   * on Vert.x's shared-server map, 64 to 789 ms under load, below a correct start()). A monitor the learner's code
   * enters, or one a thread holds while it runs the learner's code, is still evidence.
   */
  private boolean isVertxsOwnLock(ThreadInfo info, StackTraceElement[] stack) {
    if (info.getThreadState() != Thread.State.BLOCKED || stack.length == 0 || !isVertxOrNetty(stack[0])) {
      return false;
    }
    ThreadInfo holder = info.getLockOwnerId() < 0 ? null : readings.info(info.getLockOwnerId());
    if (holder == null) {
      return false;
    }
    for (StackTraceElement frame : holder.getStackTrace()) {
      String type = frame.getClassName();
      if (!(type.startsWith("java.") || type.startsWith("jdk.") || type.startsWith("sun."))) {
        return isVertxOrNetty(frame);
      }
    }
    return false;
  }

  private static boolean isVertxOrNetty(StackTraceElement frame) {
    return frame.getClassName().startsWith("io.vertx.") || frame.getClassName().startsWith("io.netty.");
  }

  private static boolean insideVertxOrNetty(StackTraceElement[] stack) {
    for (StackTraceElement frame : stack) {
      if (CodeUnderTest.isWatched(frame)) {
        return false;
      }
      if (isVertxOrNetty(frame)) {
        return true;
      }
    }
    return false;
  }

  /** {@code io.looplab.x.Cache$Entry@1b2c} as "a Cache.Entry object (Cache$Entry@1b2c)". */
  private static String lockInWords(String lockName) {
    if (lockName == null) {
      return "an object";
    }
    String type = lockName.contains("@") ? lockName.substring(0, lockName.indexOf('@')) : lockName;
    String simple = type.substring(type.lastIndexOf('.') + 1);
    return "a " + simple.replace('$', '.') + " object (" + lockName.substring(type.lastIndexOf('.') + 1) + ")";
  }

  /**
   * Whether the loop has been computing: it used half the stall limit of CPU time since its task was first seen (or
   * last seen warming up). That
   * is CPU time, however it came (in one run on an idle machine, or in bursts on a crowded one), so a spin is blamed
   * at the limit on an idle machine and later on a busy one, and a short task stretched by the machine never is.
   */
  private boolean isComputing(Sighting seen, long cpu) {
    return cpu - seen.firstCpuNanos() >= stallNanos / 2;
  }
}
