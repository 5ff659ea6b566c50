package io.looplab.cli.engine;

import net.bytebuddy.jar.asm.ClassReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every supertype of a class, read from class files without loading any class: the learner's compiled classes first,
 * then the exercise's libraries, then the JDK's own. An owner in a class file is the static type the code used, so
 * {@code myThread.getContextClassLoader()} names the learner's Thread subclass, and {@code new URLClassLoader(...)}
 * names URLClassLoader: only their supertypes tell that they are a Thread and a class loader. A type that cannot be
 * found has no known supertypes.
 */
final class Supertypes implements AutoCloseable {

  /** Used only to find class files as resources; no class is ever defined through it. */
  private final URLClassLoader classFiles;
  private final Map<String, Set<String>> known = new HashMap<>();

  Supertypes(Path classes, List<Path> libraries) {
    List<URL> urls = new ArrayList<>();
    try {
      urls.add(classes.toUri().toURL());
      for (Path library : libraries) {
        urls.add(library.toUri().toURL());
      }
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
    classFiles = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
  }

  /** Whether {@code type} is {@code wanted} or one of its subtypes (internal names, {@code java/lang/Thread}). */
  boolean isOrExtends(String type, String wanted) {
    return type.equals(wanted) || of(type).contains(wanted);
  }

  /** All supertypes of {@code type}, direct and indirect. */
  private Set<String> of(String type) {
    Set<String> found = known.get(type);
    if (found == null) {
      found = new LinkedHashSet<>();
      for (String direct : direct(type)) {
        found.add(direct);
        found.addAll(of(direct));
      }
      known.put(type, found);
    }
    return found;
  }

  private List<String> direct(String type) {
    try (InputStream in = classFiles.getResourceAsStream(type + ".class")) {
      if (in == null) {
        return List.of();
      }
      ClassReader header = new ClassReader(in);
      List<String> direct = new ArrayList<>(List.of(header.getInterfaces()));
      if (header.getSuperName() != null) {
        direct.add(header.getSuperName());
      }
      return direct;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      classFiles.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
