package io.looplab.cli.classroom;

import io.looplab.cli.engine.Exercise;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Originals;
import io.looplab.cli.engine.SourceFingerprint;
import io.looplab.cli.engine.Target;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which exercises of a submission are the stub exactly as the kit handed it out: their {@code src/main} has the
 * fingerprint of the original's (see {@link Originals}), or the submission lacks the exercise and it is graded as
 * that stub. Such an exercise is "not started": its failures say what the stub does, not what the learner got wrong.
 */
final class UntouchedStubs {

  private final Map<String, String> stubFingerprint = new HashMap<>();

  UntouchedStubs(Kit kit, List<Exercise> exercises) {
    Originals originals = Originals.of(kit);
    for (Exercise e : exercises) {
      stubFingerprint.put(e.id(), SourceFingerprint.of(originals.of(e, Originals.Part.STUB).dir()));
    }
  }

  /** The ids of {@code target}'s exercises (among those given at construction) that are the untouched stub. */
  Set<String> in(Target target, List<Exercise> exercises) {
    Set<String> untouched = new TreeSet<>();
    for (Exercise e : exercises) {
      Optional<Path> main = target.mainDir(e);
      if (main.isEmpty() || SourceFingerprint.of(main.get()).equals(stubFingerprint.get(e.id()))) {
        untouched.add(e.id());
      }
    }
    return untouched;
  }
}
