package io.looplab.cli.classroom;

import io.looplab.cli.TinyKit;
import io.looplab.cli.engine.Kit;
import io.looplab.cli.engine.Target;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which exercises of a submission are the stub as handed out: compared with the kit's originals, not by date. */
class UntouchedStubsTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a stub copied unchanged or missing is untouched; an edited one, or one with a file added, is not")
  void untouchedIsTheOriginalStub() throws Exception {
    TinyKit tiny = TinyKit.create(dir.resolve("kit"));
    Kit kit = Kit.at(tiny.root());
    Path alice = dir.resolve("alice");
    for (String id : TinyKit.IDS.subList(0, 2)) {
      Path task = alice.resolve(id).resolve("src/main/java/lab/Task.java");
      Files.createDirectories(task.getParent());
      Files.copy(tiny.stub(id), task);
    }
    Files.writeString(alice.resolve("02-blocking-calls/src/main/java/lab/Helper.java"), "class Helper {}\n");
    Path bob = dir.resolve("bob");
    for (String id : TinyKit.IDS) {
      Path task = bob.resolve(id).resolve("src/main/java/lab/Task.java");
      Files.createDirectories(task.getParent());
      Files.writeString(task, Files.readString(tiny.stub(id)).replace("// TODO", "int tried = 1; // TODO"));
    }
    UntouchedStubs stubs = new UntouchedStubs(kit, kit.exercises());
    assertEquals(Set.of("01-first-steps", "03-execute-blocking"), stubs.in(Target.submission(kit, alice),
        kit.exercises()), "01 as handed out, 03 missing (graded as its stub); 02 has a file of alice's own");
    assertEquals(Set.of(), stubs.in(Target.submission(kit, bob), kit.exercises()), "bob edited every stub");
  }
}
