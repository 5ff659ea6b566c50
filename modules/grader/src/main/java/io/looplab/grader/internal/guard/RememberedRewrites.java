package io.looplab.grader.internal.guard;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.ProtectionDomain;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarFile;

/**
 * BlockHound's class rewrites, remembered: the {@link Instrumentation} that BlockHound installs through, which keeps
 * what each of its class-file transformers made of each class, or, given what an earlier JVM kept, hands that back
 * instead of asking the transformer again.
 *
 * <p>Why: BlockHound's install rewrites some 30 JDK and library classes with Byte Buddy, and Byte Buddy parses each
 * one's whole type hierarchy to do it: about half a second of CPU in every grading JVM (measured: 530-610 ms, against
 * 340-360 ms when the rewrites are handed back), and every class loaded after it is parsed again to be matched. A
 * transformer's answer depends on nothing but the class it is given (its name, whether it is being redefined, its
 * bytes: the key here, hashed with SHA-256) and on BlockHound's configuration, the JDK and the libraries, which the
 * kit's class archive is made for ({@code ClassArchive} keeps the file beside it). A class the file does not know
 * (the learner's, the tests', one made at run time) goes to the transformer as it always did, so a stale or missing
 * file costs time, never a wrong rewrite.
 *
 * <p>The file is written only by the kit's own JVM that makes the archive (it runs the grader's warm-up, no learner's
 * code) and read by grading JVMs, where the sandbox leaves it read-only.
 */
final class RememberedRewrites implements Instrumentation {

  private static final String MAGIC = "looplab BlockHound rewrites 1";

  private final Instrumentation jvm;
  /** What each transformer made of each class, by key; an empty array for "left it unchanged". */
  private final Map<String, byte[]> known;
  /** Where to write what the transformers made, or null when replaying. */
  private final Path recordTo;
  private final Map<ClassFileTransformer, Remembering> wrappers = new ConcurrentHashMap<>();
  private final AtomicInteger replayed = new AtomicInteger();
  private final AtomicInteger replayedRewrites = new AtomicInteger();
  private final AtomicInteger asked = new AtomicInteger();

  private RememberedRewrites(Instrumentation jvm, Map<String, byte[]> known, Path recordTo) {
    this.jvm = jvm;
    this.known = known;
    this.recordTo = recordTo;
    // Once before any transformer is wrapped: hashing and the map load no class inside a transform after this (a
    // class loaded while another is being transformed on the same thread can fail with ClassCircularityError).
    key(0, "warm-up", false, new byte[1]);
    known.get("");
    NOT_WITHIN.get();
  }

  /** Replays what {@code file} holds; a file that cannot be read is no file (every class goes to its transformer). */
  static RememberedRewrites replaying(Instrumentation jvm, Path file) {
    return new RememberedRewrites(jvm, read(file).orElseGet(HashMap::new), null);
  }

  /** Asks every transformer, and keeps its answers for {@link #save()} to write to {@code file}. */
  static RememberedRewrites recording(Instrumentation jvm, Path file) {
    return new RememberedRewrites(jvm, new ConcurrentHashMap<>(), file);
  }

  /** Writes what was kept (when recording) in one piece, moved into place whole. */
  void save() throws IOException {
    if (recordTo == null) {
      return;
    }
    Path partial = recordTo.resolveSibling(recordTo.getFileName() + ".partial");
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(partial)))) {
      out.writeUTF(MAGIC);
      out.writeInt(known.size());
      for (Map.Entry<String, byte[]> entry : known.entrySet()) {
        out.writeUTF(entry.getKey());
        out.writeInt(entry.getValue().length);
        out.write(entry.getValue());
      }
    }
    Files.move(partial, recordTo, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** One line for a log: how many answers came from the file, and how many from the transformers. */
  String summary() {
    if (recordTo != null) {
      long rewritten = known.values().stream().filter(b -> b.length > 0).count();
      return "kept BlockHound's answers for " + known.size() + " classes (" + rewritten + " rewritten) in " + recordTo;
    }
    return "replayed BlockHound's answers for " + replayed.get() + " classes (" + replayedRewrites.get()
        + " rewritten) from the kit's file, asked it for " + asked.get();
  }

  int replayedCount() {
    return replayed.get();
  }

  int askedCount() {
    return asked.get();
  }

  private static Optional<Map<String, byte[]>> read(Path file) {
    if (file == null || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      if (!MAGIC.equals(in.readUTF())) {
        return Optional.empty();
      }
      int count = in.readInt();
      Map<String, byte[]> known = new HashMap<>();
      for (int i = 0; i < count; i++) {
        String key = in.readUTF();
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        known.put(key, bytes);
      }
      return Optional.of(known);
    } catch (IOException | RuntimeException | OutOfMemoryError e) {
      return Optional.empty(); // cut short or not ours: the transformers answer instead
    }
  }

  private static final MessageDigest SHA_256;

  static {
    try {
      SHA_256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Which transformer (by the order it was added), which class, redefined or defined, and a hash of its bytes. */
  private static String key(int transformer, String className, boolean redefining, byte[] bytes) {
    synchronized (SHA_256) {
      SHA_256.reset();
      SHA_256.update((byte) transformer);
      SHA_256.update((byte) (redefining ? 1 : 0));
      SHA_256.update(String.valueOf(className).getBytes(StandardCharsets.UTF_8));
      SHA_256.update((byte) 0);
      return HexFormat.of().formatHex(SHA_256.digest(bytes));
    }
  }

  /** Set on a thread while it is inside a remembering transformer: a class loaded then goes straight through. */
  private static final ThreadLocal<Boolean> NOT_WITHIN = new ThreadLocal<>() {
    @Override
    protected Boolean initialValue() {
      return Boolean.TRUE;
    }
  };

  /** A transformer of BlockHound's, asked only for what the file does not know. */
  private final class Remembering implements ClassFileTransformer {
    private final ClassFileTransformer transformer;
    private final int index;

    Remembering(ClassFileTransformer transformer, int index) {
      this.transformer = transformer;
      this.index = index;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
      if (!NOT_WITHIN.get()) {
        return transformer.transform(module, loader, className, redefined, domain, bytes);
      }
      NOT_WITHIN.set(Boolean.FALSE);
      try {
        String key = key(index, className, redefined != null, bytes);
        byte[] remembered = recordTo == null ? known.get(key) : null;
        if (remembered != null) {
          replayed.incrementAndGet();
          if (remembered.length == 0) {
            return null;
          }
          replayedRewrites.incrementAndGet();
          return remembered.clone();
        }
        asked.incrementAndGet();
        byte[] made = transformer.transform(module, loader, className, redefined, domain, bytes);
        if (recordTo != null) {
          known.put(key, made == null ? new byte[0] : made.clone());
        }
        return made;
      } finally {
        NOT_WITHIN.set(Boolean.TRUE);
      }
    }
  }

  private ClassFileTransformer remembering(ClassFileTransformer transformer) {
    synchronized (wrappers) {
      return wrappers.computeIfAbsent(transformer, t -> new Remembering(t, wrappers.size()));
    }
  }

  // ---- the JVM's own Instrumentation, with BlockHound's transformers wrapped ----------------------------------------

  @Override
  public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
    jvm.addTransformer(remembering(transformer), canRetransform);
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer) {
    jvm.addTransformer(remembering(transformer));
  }

  @Override
  public boolean removeTransformer(ClassFileTransformer transformer) {
    ClassFileTransformer wrapper = wrappers.get(transformer);
    return wrapper != null && jvm.removeTransformer(wrapper);
  }

  @Override
  public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
    jvm.setNativeMethodPrefix(remembering(transformer), prefix);
  }

  @Override
  public boolean isRetransformClassesSupported() {
    return jvm.isRetransformClassesSupported();
  }

  @Override
  public void retransformClasses(Class<?>... classes) throws UnmodifiableClassException {
    jvm.retransformClasses(classes);
  }

  @Override
  public boolean isRedefineClassesSupported() {
    return jvm.isRedefineClassesSupported();
  }

  @Override
  public void redefineClasses(ClassDefinition... definitions) throws ClassNotFoundException,
      UnmodifiableClassException {
    jvm.redefineClasses(definitions);
  }

  @Override
  public boolean isModifiableClass(Class<?> theClass) {
    return jvm.isModifiableClass(theClass);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getAllLoadedClasses() {
    return jvm.getAllLoadedClasses();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getInitiatedClasses(ClassLoader loader) {
    return jvm.getInitiatedClasses(loader);
  }

  @Override
  public long getObjectSize(Object objectToSize) {
    return jvm.getObjectSize(objectToSize);
  }

  @Override
  public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {
    jvm.appendToBootstrapClassLoaderSearch(jarfile);
  }

  @Override
  public void appendToSystemClassLoaderSearch(JarFile jarfile) {
    jvm.appendToSystemClassLoaderSearch(jarfile);
  }

  @Override
  public boolean isNativeMethodPrefixSupported() {
    return jvm.isNativeMethodPrefixSupported();
  }

  @Override
  public void redefineModule(Module module, Set<Module> extraReads, Map<String, Set<Module>> extraExports,
                             Map<String, Set<Module>> extraOpens, Set<Class<?>> extraUses,
                             Map<Class<?>, List<Class<?>>> extraProvides) {
    jvm.redefineModule(module, extraReads, extraExports, extraOpens, extraUses, extraProvides);
  }

  @Override
  public boolean isModifiableModule(Module module) {
    return jvm.isModifiableModule(module);
  }
}
