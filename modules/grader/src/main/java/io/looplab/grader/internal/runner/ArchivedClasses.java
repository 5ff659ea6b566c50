package io.looplab.grader.internal.runner;

import io.looplab.grader.internal.settings.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads the library classes of the kit's class archive, by name, before anything installs an agent. BlockHound
 * appends a jar to the boot class path as it installs, and from then on the JVM loads no application class from an
 * archive: loaded first, the 3,000 classes a grading needs come mapped from the archive in some 60 ms instead of
 * being read and verified one by one (the kit's ClassArchive says why and how the archive is made).
 *
 * <p>Loading is not initialising: no static initialiser runs here, and the guard's agents rewrite classes that are
 * already loaded as they do the JDK's own. A name that no longer loads is skipped: the grading loads what it needs
 * itself, as it always did.
 */
public final class ArchivedClasses {

  private ArchivedClasses() {
  }

  /**
   * Loads the list and ends: run by the kit with {@code -XX:ArchiveClassesAtExit}, this is how the archive is made
   * (it then holds what was loaded, on top of the JDK's own archive).
   */
  public static void main(String[] args) {
    loadAhead();
  }

  /** Loads the listed classes when the kit named a list ({@link Settings#ARCHIVED_CLASSES}); else does nothing. */
  static void loadAhead() {
    String list = Settings.ARCHIVED_CLASSES.raw().orElse("");
    if (list.isBlank()) {
      return;
    }
    List<String> names;
    try {
      names = Files.readAllLines(Path.of(list));
    } catch (IOException e) {
      return;
    }
    ClassLoader loader = ClassLoader.getSystemClassLoader();
    for (String name : names) {
      try {
        Class.forName(name, false, loader);
      } catch (ClassNotFoundException | LinkageError e) {
        // skipped: see the class comment
      }
    }
  }
}
