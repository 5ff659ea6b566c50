package io.looplab.cli.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The sandbox gives its JVM an empty /tmp of its own. A kit that lives under /tmp (a clone made with mktemp -d)
 * must still be readable in it, and nothing else of the real /tmp may show.
 */
class SandboxTest {

  private final List<Path> made = new ArrayList<>();

  /** A folder made under the real /tmp, whatever java.io.tmpdir says, and deleted after the test. */
  private Path underTmp(String prefix) throws IOException {
    Path dir = Files.createTempDirectory(Path.of("/tmp"), prefix);
    made.add(dir);
    return dir;
  }

  @AfterEach
  void deleteWhatWasMade() throws IOException {
    for (Path dir : made) {
      FileTrees.delete(dir);
    }
  }

  @Test
  @DisplayName("of the paths a JVM reads, those under /tmp are bound back once each, outermost first")
  void pathsUnderTmpAreBoundBackOnce() throws IOException {
    Path kit = underTmp("kit");
    Path jar = Files.createDirectories(kit.resolve("modules/grader/target")).resolve("grader.jar");
    Files.writeString(jar, "jar");
    Path sibling = underTmp("kit");   // a name the kit's is a prefix of, but not a folder inside it
    Path link = underTmp("link").resolve("to-kit");
    Files.createSymbolicLink(link, kit);
    Path outside = Path.of(System.getProperty("java.home"));

    assertEquals(List.of(kit.toRealPath(), sibling.toRealPath()).stream().sorted().toList(),
        Sandbox.hiddenByTmpfs(List.of(jar, sibling, kit, link, outside, Path.of("/tmp/no-such-path"))),
        "the class path's jar lies inside the kit and the link leads to it; java.home is not under /tmp");
  }

  @Test
  @DisplayName("in the sandbox, a kit kept under /tmp is readable, its work folder writable, the rest of /tmp hidden")
  void aKitUnderTmpIsReadableInTheSandbox() throws Exception {
    Sandbox sandbox = Sandbox.onThisMachine().orElse(null);
    assumeTrue(sandbox != null, "bubblewrap is not installed here (.ci/run installs it)");
    Path kit = underTmp("kit");
    Files.writeString(kit.resolve("grader.jar"), "the grader");
    Path work = Files.createDirectories(kit.resolve("target/lab/work"));
    Path secret = Files.writeString(underTmp("learner").resolve("Secret.java"), "another learner's code");

    String script = "cat " + kit.resolve("grader.jar") + "; echo; echo done > result.txt; "
        + "cat " + secret + " 2>/dev/null || echo 'secret hidden'; touch /tmp/own && echo 'own tmp writable'";
    Process p = new ProcessBuilder(sandbox.wrap(List.of("/bin/sh", "-c", script), work, List.of(kit)))
        .redirectErrorStream(true).start();
    p.getOutputStream().close();
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the sandboxed command did not end");

    assertEquals("the grader\nsecret hidden\nown tmp writable\n", said, "what the sandboxed command saw");
    assertEquals("done\n", Files.readString(work.resolve("result.txt")), "the work folder must be writable");
    assertFalse(Files.exists(Path.of("/tmp/own")), "the sandbox's /tmp must be its own");
  }
}
