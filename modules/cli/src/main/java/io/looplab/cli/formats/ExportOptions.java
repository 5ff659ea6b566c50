package io.looplab.cli.formats;

import java.util.List;
import java.util.Optional;

/**
 * What a format may need beyond the scoreboard: the curriculum's exercise ids in order (so that Gradescope's test
 * numbers stay the same whatever --only picked), Gradescope's visibility, and where the graded tests' code is read
 * from (Exercism's {@code test_code}).
 */
public record ExportOptions(List<String> curriculum, String visibility, TestSource tests) {

  /** Gradescope's four visibilities (its autograder specification). */
  public static final List<String> VISIBILITIES = List.of("visible", "hidden", "after_due_date", "after_published");
  /** What the kit wrote before it could be chosen: every result shown at once. */
  public static final String DEFAULT_VISIBILITY = "visible";

  public ExportOptions {
    curriculum = List.copyOf(curriculum);
    if (!VISIBILITIES.contains(visibility)) {
      throw new IllegalArgumentException("not a Gradescope visibility: " + visibility);
    }
  }

  /** With no kit at hand: the board's own order, visible, and no test code to read. */
  static ExportOptions none(List<String> boardOrder) {
    return new ExportOptions(boardOrder, DEFAULT_VISIBILITY, (exercise, test) -> Optional.empty());
  }

  /** The exercise's place in the curriculum, from 1; after every known one when the curriculum lacks it. */
  int place(String exerciseId, int fallback) {
    int i = curriculum.indexOf(exerciseId);
    return i >= 0 ? i + 1 : curriculum.size() + fallback;
  }
}
