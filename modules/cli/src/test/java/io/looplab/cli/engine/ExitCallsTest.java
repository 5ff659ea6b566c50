package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lines where compiled code can end the JVM, read from its class files as javac wrote them. */
class ExitCallsTest {

  @TempDir
  Path dir;

  private Path compiled(String name, String source) throws IOException {
    Path file = Files.createDirectories(dir.resolve("src/p")).resolve(name + ".java");
    Files.writeString(file, source);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
        file.toString()), "the fixture compiles");
    return classes;
  }

  @Test
  @DisplayName("System.exit and Runtime.exit are found at their lines, each named as the code calls it")
  void findsEachExitAtItsLine() throws IOException {
    Path classes = compiled("Quits", """
        package p;
        public class Quits {
          void stop(int code) {
            System.exit(code);
          }
          void halt() { Runtime.getRuntime().exit(1); }
          void fine() { System.out.println("exit"); }
        }
        """);
    assertEquals(List.of("System.exit at Quits.java:4", "Runtime.exit at Quits.java:6"), ExitCalls.in(classes));
  }

  @Test
  @DisplayName("code that never exits gives no evidence, and neither does a folder that is not there")
  void nothingWithoutACall() throws IOException {
    Path classes = compiled("Stays", "package p; public class Stays { int exit() { return 0; } }");
    assertEquals(List.of(), ExitCalls.in(classes));
    assertEquals(List.of(), ExitCalls.in(dir.resolve("no-such-folder")));
  }
}
