package io.looplab.grader.internal.guard;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RememberedRewrites on a JVM of its own making: a fake Instrumentation that keeps what is registered with it, and
 * transformers that count their calls. What a JVM records is handed back to the next for the same class and bytes,
 * and anything else (other bytes, an unreadable file, a class loaded inside a transform) goes to the transformer.
 */
class RememberedRewritesTest {

  @TempDir
  Path dir;

  /** The JVM's side: the transformers registered with it, in order, and the prefixes set for them. */
  private final List<ClassFileTransformer> registered = new ArrayList<>();
  private final List<Object> prefixedFor = new ArrayList<>();
  private final Instrumentation jvm = (Instrumentation) Proxy.newProxyInstance(getClass().getClassLoader(),
      new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> switch (method.getName()) {
        case "addTransformer" -> {
          registered.add((ClassFileTransformer) args[0]);
          yield null;
        }
        case "removeTransformer" -> registered.remove(args[0]);
        case "setNativeMethodPrefix" -> {
          prefixedFor.add(args[0]);
          yield null;
        }
        default -> throw new UnsupportedOperationException(method.getName());
      });

  private static final byte[] B = {1, 2, 3};
  private static final byte[] C = {4, 5};

  /** Rewrites class "a/B" by appending 9, leaves every other class unchanged; counts its calls. */
  static final class Appending implements ClassFileTransformer {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
      calls.incrementAndGet();
      if (!name.equals("a/B")) {
        return null;
      }
      byte[] made = java.util.Arrays.copyOf(bytes, bytes.length + 1);
      made[bytes.length] = 9;
      return made;
    }
  }

  private byte[] load(ClassFileTransformer registered, String name, byte[] bytes) throws Exception {
    return registered.transform(null, null, name, null, null, bytes);
  }

  /** Replays {@code file}, with {@code transformer} added as BlockHound adds its own. */
  private RememberedRewrites replayingThrough(Path file, ClassFileTransformer transformer) {
    RememberedRewrites replaying = RememberedRewrites.replaying(jvm, file);
    replaying.addTransformer(transformer, true);
    return replaying;
  }

  private Path recordOnce() throws Exception {
    Path file = dir.resolve("rewrites.bin");
    RememberedRewrites recording = RememberedRewrites.recording(jvm, file);
    Appending transformer = new Appending();
    recording.addTransformer(transformer, true);
    assertArrayEquals(new byte[] {1, 2, 3, 9}, load(registered.get(0), "a/B", B));
    assertNull(load(registered.get(0), "a/C", C));
    assertEquals(2, transformer.calls.get(), "while recording, every class goes to the transformer");
    recording.save();
    registered.clear();
    return file;
  }

  @Test
  @DisplayName("a recorded rewrite, and a recorded 'unchanged', come back for the same class and bytes without the transformer")
  void recordedAnswersAreReplayed() throws Exception {
    Path file = recordOnce();
    Appending transformer = new Appending();
    RememberedRewrites replaying = replayingThrough(file, transformer);
    assertArrayEquals(new byte[] {1, 2, 3, 9}, load(registered.get(0), "a/B", B));
    assertNull(load(registered.get(0), "a/C", C));
    assertEquals(0, transformer.calls.get(), "the transformer was asked although the file had both answers");
    assertEquals(2, replaying.replayedCount());
  }

  @Test
  @DisplayName("other bytes under a recorded name, or a class the file never saw, go to the transformer")
  void anythingElseIsAskedOfTheTransformer() throws Exception {
    Path file = recordOnce();
    Appending transformer = new Appending();
    RememberedRewrites replaying = replayingThrough(file, transformer);
    assertArrayEquals(new byte[] {7, 7, 9}, load(registered.get(0), "a/B", new byte[] {7, 7}));
    assertNull(load(registered.get(0), "a/D", C));
    assertEquals(2, transformer.calls.get());
    assertEquals(0, replaying.replayedCount());
    assertEquals(2, replaying.askedCount());
  }

  @Test
  @DisplayName("the same bytes being redefined (not defined) are a different class to remember")
  void aRedefinitionIsNotADefinition() throws Exception {
    Path file = recordOnce();
    Appending transformer = new Appending();
    replayingThrough(file, transformer);
    registered.get(0).transform(null, null, "a/B", String.class, null, B);
    assertEquals(1, transformer.calls.get(), "a rewrite recorded at definition was replayed for a redefinition");
  }

  @Test
  @DisplayName("a file that is cut short, foreign or missing replays nothing, and every class goes to the transformer")
  void aBadFileReplaysNothing() throws Exception {
    Path file = recordOnce();
    byte[] whole = Files.readAllBytes(file);
    Path cut = Files.write(dir.resolve("cut.bin"), java.util.Arrays.copyOf(whole, whole.length - 2));
    Path foreign = Files.writeString(dir.resolve("foreign.bin"), "not ours");
    for (Path bad : List.of(cut, foreign, dir.resolve("missing.bin"))) {
      registered.clear();
      Appending transformer = new Appending();
      replayingThrough(bad, transformer);
      assertArrayEquals(new byte[] {1, 2, 3, 9}, load(registered.get(0), "a/B", B), bad.toString());
      assertEquals(1, transformer.calls.get(), bad + ": replayed from a bad file");
    }
  }

  @Test
  @DisplayName("a class loaded inside a transform goes straight to the transformer, and is not recorded")
  void aClassLoadedWithinATransformGoesStraightThrough() throws Exception {
    Path file = dir.resolve("rewrites.bin");
    RememberedRewrites recording = RememberedRewrites.recording(jvm, file);
    AtomicInteger inner = new AtomicInteger();
    ClassFileTransformer loadsAnother = new ClassFileTransformer() {
      @Override
      public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                              ProtectionDomain domain, byte[] bytes) throws java.lang.instrument.IllegalClassFormatException {
        if (name.equals("outer")) {
          // as the JVM would, when the transformer's own code loads a class
          assertNull(registered.get(0).transform(null, null, "inner", null, null, C));
        } else {
          inner.incrementAndGet();
        }
        return null;
      }
    };
    recording.addTransformer(loadsAnother, true);
    assertNull(load(registered.get(0), "outer", B));
    assertEquals(1, inner.get());
    recording.save();
    registered.clear();
    replayingThrough(file, loadsAnother);
    assertNull(load(registered.get(0), "inner", C));
    assertEquals(2, inner.get(), "the class loaded within the transform was recorded");
  }

  @Test
  @DisplayName("the native-method prefix and the removal reach the JVM for the transformer it was given")
  void prefixAndRemovalNameTheRegisteredTransformer() {
    RememberedRewrites replaying = RememberedRewrites.replaying(jvm, dir.resolve("none.bin"));
    Appending transformer = new Appending();
    replaying.addTransformer(transformer, true);
    replaying.setNativeMethodPrefix(transformer, "$$BlockHound$$_");
    assertSame(registered.get(0), prefixedFor.get(0), "the prefix was set for another transformer than the JVM has");
    assertTrue(replaying.removeTransformer(transformer));
    assertTrue(registered.isEmpty());
    assertFalse(replaying.removeTransformer(new Appending()), "removed a transformer that was never added");
  }
}
