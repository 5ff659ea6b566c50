package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fingerprint that decides whether the graded tests compiled last can be used again: the same for an edit
 * inside a method, different for anything that code compiled against the class could see.
 */
class ApiFingerprintTest {

  private static final String BASE = """
      package shop;
      public class Cart {
        public static final int LIMIT = 3;
        private int items;
        public int add(int n) { items += n; return items; }
        public static class Line { public String name; }
      }
      """;

  @TempDir
  Path dir;
  private int compiled;

  private String api(String source) throws IOException {
    Path src = dir.resolve("src" + (++compiled)).resolve("shop/Cart.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source);
    SourceCompiler.Result r = new SourceCompiler().compile(src.getParent().getParent(), null,
        dir.resolve("out" + compiled), List.of());
    assertTrue(r.ok(), "the test's own source must compile: " + r.firstError());
    return r.api();
  }

  @Test
  @DisplayName("an edit inside a method body, or a comment, leaves the fingerprint as it was")
  void bodiesDoNotCount() throws IOException {
    String base = api(BASE);
    assertEquals(base, api(BASE.replace("items += n; return items;", "items = items + n * 1; return items; /* x */")));
    assertEquals(base, api(BASE));
  }

  @Test
  @DisplayName("a constant's value, a thrown exception, a parameter type, an overload, a nested class's field, a "
      + "private field, a modifier: each changes the fingerprint")
  void whatCallersCanSeeCounts() throws IOException {
    String base = api(BASE);
    List<String> changed = List.of(
        BASE.replace("LIMIT = 3", "LIMIT = 4"),
        BASE.replace("public int add(int n) {", "public int add(int n) throws Exception {"),
        BASE.replace("add(int n)", "add(long n)").replace("items += n", "items += (int) n"),
        BASE.replace("public static class Line", "public int add(String n) { return items; }\n  public static class Line"),
        BASE.replace("public String name;", "public CharSequence name;"),
        BASE.replace("private int items;", "private long items;").replace("return items;", "return (int) items;"),
        BASE.replace("public int add", "public synchronized int add"),
        BASE.replace("public static class Line", "static class Line"));
    for (String variant : changed) {
      assertNotEquals(base, api(variant), "must differ from the base:\n" + variant);
    }
  }
}
