package io.looplab.selftest;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunsInTheHandoutCloneTest {

  @Test
  @DisplayName("the classes left to the handout's clone are exactly those marked so, so the clone's log is checked for each")
  void theListIsTheMarkedClasses() throws IOException, URISyntaxException, ClassNotFoundException {
    Path here = Path.of(RunsInTheHandoutCloneTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve("io/looplab/selftest");
    List<String> marked;
    try (Stream<Path> files = Files.list(here)) {
      marked = files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".class") && !n.contains("$"))
          .map(n -> "io.looplab.selftest." + n.substring(0, n.length() - ".class".length()))
          .sorted().toList();
    }
    List<String> annotated = new ArrayList<>();
    for (String name : marked) {
      if (Class.forName(name, false, getClass().getClassLoader()).isAnnotationPresent(RunsInTheHandoutClone.class)) {
        annotated.add(name);
      }
    }
    assertEquals(annotated, RunsInTheHandoutClone.CLASSES.stream().map(Class::getName).sorted().toList(),
        "RunsInTheHandoutClone.CLASSES must list every class marked @RunsInTheHandoutClone, and only those");
  }
}
