package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spare JVMs wait for a grading, and no more of them than {@link SpareJvms#MOST}: each holds memory. */
class SpareJvmsTest {

  @TempDir
  Path dir;

  /** A stand-in for a waiting grading JVM: cat waits on its standard input, as the grading JVM waits for "go". */
  private WaitingJvm waiting(String id) throws IOException {
    ForkedJvm jvm = ForkedJvm.start(List.of("cat"), dir.resolve(id + ".log"));
    return new WaitingJvm(id, "exercises", List.of(), dir, dir, dir.resolve("report.json"), dir.resolve("log"), jvm);
  }

  @Test
  @DisplayName("a third spare stops the oldest one; the two newest keep waiting, and close stops them")
  void theOldestSpareStopsWhenThereAreTooMany() throws Exception {
    SpareJvms spares = new SpareJvms();
    List<WaitingJvm> started = new ArrayList<>();
    try {
      for (String id : List.of("01", "02", "03")) {
        WaitingJvm spare = waiting(id);
        started.add(spare);
        spares.put(spare);
      }
      assertEquals(2, SpareJvms.MOST);
      assertFalse(started.get(0).jvm().isAlive(), "the spare of 01, the oldest, must be stopped");
      assertTrue(started.get(1).jvm().isAlive() && started.get(2).jvm().isAlive(), "02 and 03 keep waiting");
      spares.close();
      assertFalse(started.get(1).jvm().isAlive() || started.get(2).jvm().isAlive(), "close stops every spare");
    } finally {
      for (WaitingJvm spare : started) {
        spare.jvm().kill();
      }
    }
  }
}
