package io.looplab.cli.engine;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The class archive is an optimisation: where it cannot be made, gradings go on without it, and it says why. (That a
 * real one is made, holds library classes only and is mapped by a grading JVM is the self-test's ClassArchiveTest.)
 */
class ClassArchiveTest {

  @TempDir
  Path dir;

  private Path jar(String name) throws IOException {
    Path jar = dir.resolve(name);
    try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("a/A.class"));
      zip.closeEntry();
    }
    return jar;
  }

  /** A "java" that says {@code says} and exits 3, and counts its runs in {@code runs.txt}. */
  private Path failingJava(String says) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\necho run >> '" + dir.resolve("runs.txt") + "'\necho '" + says + "'\nexit 3\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return java;
  }

  @Test
  @DisplayName("a class path with a folder on it gets no archive, and nothing is run or written")
  void aFolderOnTheClassPathMeansNoArchive() throws IOException {
    Path home = dir.resolve("archives");
    Path folder = Files.createDirectories(dir.resolve("classes"));
    assertTrue(ClassArchive.of(home, failingJava("never"), List.of(jar("lib.jar"), folder)).isEmpty());
    assertFalse(Files.exists(home), "nothing may be made for a class path an archive cannot have");
    assertFalse(Files.exists(dir.resolve("runs.txt")), "no JVM may be started for it");
  }

  @Test
  @DisplayName("a library that is missing gets no archive (the grading itself says what is missing)")
  void aMissingLibraryMeansNoArchive() throws IOException {
    assertTrue(ClassArchive.of(dir.resolve("archives"), failingJava("never"),
        List.of(jar("lib.jar"), dir.resolve("gone.jar"))).isEmpty());
    assertFalse(Files.exists(dir.resolve("runs.txt")), "no JVM may be started for it");
  }

  @Test
  @DisplayName("a JDK that cannot make the archive: none, why-not.txt names the step and what the JVM said, and this "
      + "process does not try again")
  void aFailedStepIsSaidOnceAndNotRetried() throws IOException {
    Path home = dir.resolve("archives");
    Path java = failingJava("no class data sharing here");
    List<Path> libraries = List.of(jar("one.jar"), jar("two.jar"));
    assertTrue(ClassArchive.of(home, java, libraries).isEmpty());
    assertTrue(ClassArchive.of(home, java, libraries).isEmpty());
    assertEquals(1, Files.readAllLines(dir.resolve("runs.txt")).size(), "the failed step ran again");
    try (var made = Files.list(home)) {
      List<Path> dirs = made.filter(Files::isDirectory).toList();
      assertEquals(1, dirs.size(), "one folder for the one JDK and class path, and no work folder left: " + dirs);
      String why = Files.readString(dirs.get(0).resolve("why-not.txt"));
      assertTrue(why.contains("listing the classes failed with exit status 3"), why);
      assertTrue(why.contains("no class data sharing here"), why);
      assertFalse(Files.exists(dirs.get(0).resolve("classes.jsa")));
    }
  }

  /** A folder that looks like a kit: its exercises/, its lab script, its pom. */
  private Path kit(String name, boolean withLabScript) throws IOException {
    Path root = Files.createDirectories(dir.resolve(name).resolve("exercises")).getParent();
    Files.writeString(root.resolve("pom.xml"), "<project/>");
    if (withLabScript) {
      Files.writeString(root.resolve("lab"), "#!/bin/sh\n");
    }
    return root;
  }

  @Test
  @DisplayName("a kit that borrows another kit's class path keeps its archives in the lender's target/; a kit with "
      + "its own build, in its own")
  void aBorrowedClassPathSharesTheLendersArchives() throws IOException {
    Path lender = kit("lender", true);
    Path borrower = kit("borrower", true);
    Path grader = Files.createDirectories(lender.resolve("modules/grader/target")).resolve("looplab-grader.jar");
    Files.writeString(grader, "");
    Path library = jar("vertx-core.jar");
    Path archives = Path.of("target", "lab", "class-archives");
    assertEquals(lender.resolve(archives), ClassArchive.home(Kit.at(borrower), List.of(library, grader)));
    assertEquals(lender.resolve(archives), ClassArchive.home(Kit.at(lender), List.of(library, grader)));
    assertEquals(borrower.resolve(archives), ClassArchive.home(Kit.at(borrower), List.of(library)));
    // A folder laid out like a kit's build, but no kit (no lab script): it lends nothing.
    Path notAKit = kit("not-a-kit", false);
    Path stray = Files.createDirectories(notAKit.resolve("modules/grader/target")).resolve("looplab-grader.jar");
    Files.writeString(stray, "");
    assertEquals(borrower.resolve(archives), ClassArchive.home(Kit.at(borrower), List.of(library, stray)));
  }
}
