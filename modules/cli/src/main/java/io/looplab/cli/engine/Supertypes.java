package io.looplab.cli.engine;

import net.bytebuddy.jar.asm.ClassReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Every supertype of a class, read from class files without loading any class: the JDK's own, then the learner's
 * compiled classes, then the exercise's libraries. An owner in a class file is the static type the code used, so
 * {@code myThread.getContextClassLoader()} names the learner's Thread subclass, and {@code new URLClassLoader(...)}
 * names URLClassLoader: only their supertypes tell that they are a Thread and a class loader. A type that cannot be
 * found has no known supertypes.
 *
 * <p>The libraries' jars are opened here, each a ZipFile of this object's own, and closed with it: a URLClassLoader
 * would share the JVM's cached jar files, and closing it would close them under every other grading.
 */
final class Supertypes implements AutoCloseable {

  private final List<Path> folders;
  private final Map<Path, ZipFile> jars = new HashMap<>();
  private final Map<String, Set<String>> known = new HashMap<>();

  Supertypes(Path classes, List<Path> libraries) {
    folders = new ArrayList<>(List.of(classes));
    folders.addAll(libraries);
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
    try (InputStream in = classFile(type + ".class")) {
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

  /** The class file {@code name} ("java/lang/Thread.class"), or null when no folder, jar or JDK module has it. */
  private InputStream classFile(String name) throws IOException {
    InputStream jdk = ClassLoader.getPlatformClassLoader().getResourceAsStream(name);
    if (jdk != null) {
      return jdk;
    }
    for (Path place : folders) {
      if (Files.isDirectory(place)) {
        Path file = place.resolve(name);
        if (Files.isRegularFile(file)) {
          return Files.newInputStream(file);
        }
      } else if (Files.isRegularFile(place)) {
        ZipFile jar = jar(place);
        ZipEntry entry = jar.getEntry(name);
        if (entry != null) {
          return jar.getInputStream(entry);
        }
      }
    }
    return null;
  }

  private ZipFile jar(Path file) throws IOException {
    ZipFile jar = jars.get(file);
    if (jar == null) {
      jar = new ZipFile(file.toFile());
      jars.put(file, jar);
    }
    return jar;
  }

  @Override
  public void close() {
    for (ZipFile jar : jars.values()) {
      try {
        jar.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
