package io.looplab.cli.commands;

import io.looplab.cli.Lab;
import io.looplab.cli.engine.Console;
import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.GradingEngine;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Results;
import io.looplab.cli.engine.Target;
import io.looplab.cli.engine.TextLayout;
import io.looplab.cli.session.Outbox;
import io.looplab.cli.session.VerdictPosting;
import io.looplab.report.ExerciseResult;
import io.looplab.report.ExerciseStatus;
import io.looplab.report.TestResult;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The watch loop: one exercise at a time, graded again whenever its sources change, with one status line per
 * verdict. Grading runs on a thread of its own, in a JVM of its own (started ahead, so a save waits only for the
 * compile and the tests); a save during a grading stops that grading and starts the next. Keys: h, l, r, q.
 */
final class WatchLoop {

  private static final long POLL_MS = 50;
  /** The "time of the save" of a grading that no save started. */
  private static final long NOT_A_SAVE = -1;
  private static final String KEYS = "(h hint · l list · r run again · q quit)";

  /** What the loop reacts to. */
  private sealed interface Event permits Saved, Graded, Key {
  }

  private record Saved(long changedAtMillis) implements Event {
  }

  private record Graded(long generation, ExerciseResult report, long changedAtMillis) implements Event {
  }

  private record Key(char key) implements Event {
  }

  private final Kit kit;
  private final Console console;
  private final TerminalKeys keys;
  private final boolean timing;
  private final boolean stay;
  private final Results results;
  private final Target target;
  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final ExecutorService grader = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "lab-watch-grader");
    t.setDaemon(true);
    return t;
  });
  private volatile boolean stopping;
  /** The send of the latest verdict to the session, if the kit joined one: awaited briefly when watch ends. */
  private CompletableFuture<Outbox.Sent> sending = CompletableFuture.completedFuture(null);
  private long generation;
  private boolean grading;

  WatchLoop(Kit kit, Console console, TerminalKeys keys, boolean timing, boolean stay) {
    this.stay = stay;
    this.kit = kit;
    this.console = console;
    this.keys = keys;
    this.timing = timing;
    this.results = new Results(kit);
    this.target = Target.exercises(kit);
  }

  void run(Exercise first) {
    GradingEngine engine = new GradingEngine(kit, false);
    try {
      Exercise current = first;
      announce(current);
      SourceWatch sources = new SourceWatch(current.dir().resolve("src/main"));
      start(engine, current, NOT_A_SAVE);
      while (true) {
        Event event = nextEvent(sources);
        if (event instanceof Key key) {
          if (!onKey(engine, current, key.key())) {
            break;
          }
        } else if (event instanceof Saved saved) {
          if (grading) {
            engine.cancelCurrent();
          }
          start(engine, current, saved.changedAtMillis());
        } else if (event instanceof Graded graded && graded.generation() == generation) {
          grading = false;
          results.save(graded.report());
          show(current, graded.report(), graded.changedAtMillis());
          // Printed first, then sent in the background: the next save never waits for the session server.
          sending = VerdictPosting.post(kit, current, graded.report(), HintCommand.hintsUsed(kit, current), "watch");
          if (graded.report().isComplete() && !stay) {
            Optional<Exercise> next = results.nextNotDone(current);
            if (next.isEmpty()) {
              console.line("Every exercise of the kit has full marks. Well played!");
              break;
            }
            current = next.get();
            console.line("");
            announce(current);
            sources = new SourceWatch(current.dir().resolve("src/main"));
            start(engine, current, NOT_A_SAVE);
          }
        }
      }
    } finally {
      // The grading thread may be starting a spare JVM: let it finish, then stop every JVM the engine started.
      stopping = true;
      grader.shutdown();
      try {
        if (!grader.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
          engine.cancelCurrent();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      engine.close();
      VerdictPosting.awaitBriefly(sending);
    }
  }

  private Event nextEvent(SourceWatch sources) {
    while (true) {
      Event queued = events.poll();
      if (queued != null) {
        return queued;
      }
      try {
        Character key = keys.next(POLL_MS);
        if (key != null) {
          return new Key(key);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Key('q');
      }
      Optional<Long> changed = sources.changedSinceLastLook();
      if (changed.isPresent()) {
        return new Saved(changed.get());
      }
    }
  }

  /** Handles a key; false to stop watching. */
  private boolean onKey(GradingEngine engine, Exercise current, char key) {
    switch (Character.toLowerCase(key)) {
      case 'h' -> Lab.execute("hint", current.id());
      case 'l' -> Lab.execute("list");
      case 'r' -> {
        if (grading) {
          engine.cancelCurrent();
        }
        start(engine, current, NOT_A_SAVE);
      }
      case 'q', '\u0003', '\u0004' -> {
        if (grading) {
          engine.cancelCurrent();
        }
        console.line("Stopped watching.");
        return false;
      }
      default -> {
        return true;
      }
    }
    console.line(KEYS);
    return true;
  }

  private void start(GradingEngine engine, Exercise exercise, long changedAt) {
    long mine = ++generation;
    grading = true;
    grader.submit(() -> {
      try {
        ExerciseResult report = engine.grade(exercise, target, console.progress(1, 1));
        events.add(new Graded(mine, report, changedAt));
        if (!stopping) {
          // Full marks move the watch on: the JVM to start ahead is then the next exercise's.
          Exercise upcoming = report.isComplete() && !stay ? results.nextNotDone(exercise).orElse(exercise) : exercise;
          engine.prepareNext(upcoming, target);
          engine.trainCompiler(exercise, target);
        }
      } catch (RuntimeException e) {
        ExerciseResult failed = ExerciseResult.of(exercise.id(), exercise.title(), java.util.List.of())
            .withNote("The grader could not run: " + e.getMessage());
        events.add(new Graded(mine, failed, changedAt));
      }
    });
  }

  /** Three short lines, each under 80 columns but for the title, which is clipped to the terminal. */
  private void announce(Exercise exercise) {
    console.line(TextLayout.clip("Watching " + exercise.id() + ": " + exercise.title(), console.width()));
    console.line("Edit exercises/" + exercise.id() + "/src/main and save; its README.md has the task.");
    console.line(KEYS);
  }

  /** The verdict in one status line, then the first thing to fix. */
  private void show(Exercise exercise, ExerciseResult report, long changedAt) {
    String after = timing && changedAt != NOT_A_SAVE ? String.format(" (%.2f s after the save)",
        (System.currentTimeMillis() - changedAt) / 1000.0) : "";
    verdict(console, exercise.id(), report, after);
  }

  /** What watch prints for one grading: a status line ({@code after}: the time since the save, or nothing). */
  static void verdict(Console console, String exerciseId, ExerciseResult report, String after) {
    long passed = report.tests().stream().filter(TestResult::passed).count();
    String head = console.mark(report.isComplete()) + " " + exerciseId + " "
        + console.score(report.points(), report.max());
    if (report.isComplete()) {
      console.line(head + " full marks" + after);
      return;
    }
    if (report.status() == ExerciseStatus.COMPILE_ERROR) {
      // The message says it in the words check and grade use ("Your code does not compile: ..."), errors below.
      console.line(head + " · compile-error" + after);
      console.wrapped(report.message(), "    ");
      return;
    }
    Optional<TestResult> first = report.tests().stream().filter(t -> !t.passed()).findFirst();
    console.line(head + " · " + passed + " of " + report.tests().size() + " tests pass"
        + (report.status() == ExerciseStatus.FAILED ? "" : " · " + report.status()) + after
        + first.map(t -> " · first to fix: " + t.name()).orElse(""));
    first.map(TestResult::message).or(() -> Optional.ofNullable(report.message()))
        .ifPresent(m -> console.wrapped(m, "    "));
  }
}
