package io.looplab.grader.nodes;

import org.opentest4j.AssertionFailedError;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One other JVM that a test starts, as a second (or third) node of a distributed exercise: same class path as the
 * test, its own main class, and a line protocol over its standard input and output (see {@link NodeChannel}).
 *
 * <p>Nothing outlives the test that started it: {@link #close()} kills the process and everything it started, a
 * shutdown hook does the same for nodes the test forgot, and a node whose test JVM dies (even by {@code kill -9})
 * reads the end of its standard input and halts.
 */
public final class NodeProcess implements AutoCloseable {

  private static final Set<NodeProcess> LIVE = ConcurrentHashMap.newKeySet();
  private static final int OUTPUT_TAIL_LINES = 30;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(NodeProcess::close),
        "looplab-node-reaper"));
  }

  private final String name;
  private final Process process;
  private final Writer toNode;
  private final Map<Integer, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Deque<String> outputTail = new ArrayDeque<>();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final Thread output;

  private NodeProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    this.toNode = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    this.output = daemon("looplab-node-" + name + "-output", () -> keepTail(process.getErrorStream()));
    daemon("looplab-node-" + name + "-replies", () -> readReplies(process.getInputStream()));
  }

  /**
   * The class path that loaded {@code mainClass}: the folders of any class loader of its own (a grading JVM that
   * serves several gradings loads each one's classes so), then this JVM's class path.
   */
  static String classPathOf(Class<?> mainClass) {
    List<String> entries = new ArrayList<>();
    for (ClassLoader l = mainClass.getClassLoader(); l != null; l = l.getParent()) {
      if (l instanceof URLClassLoader own) {
        for (URL url : own.getURLs()) {
          try {
            entries.add(Path.of(url.toURI()).toString());
          } catch (URISyntaxException | IllegalArgumentException e) {
            // not a folder or jar on disk: the node could not use it either
          }
        }
      }
    }
    entries.add(System.getProperty("java.class.path"));
    return String.join(File.pathSeparator, entries);
  }

  /**
   * Starts {@code mainClass} in a new JVM with this JVM's class path, without waiting for it: start several nodes,
   * then {@link #awaitReady} each, and they boot side by side.
   *
   * @param name what messages call this node, e.g. "node A"
   */
  public static NodeProcess launch(String name, Class<?> mainClass, List<String> args) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // A node is short-lived and small: the quick JIT tier and a small heap start it faster.
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Dlooplab.node=" + name,
        "-cp", classPathOf(mainClass), mainClass.getName()));
    command.addAll(args);
    try {
      NodeProcess node = new NodeProcess(name, new ProcessBuilder(command).start());
      LIVE.add(node);
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start a JVM for " + name, e);
    }
  }

  /**
   * Waits until the node reports ready.
   *
   * @throws AssertionFailedError if the node exits or does not get ready within {@code timeout}; the node is killed,
   *     and the message holds the last lines it printed
   */
  public NodeProcess awaitReady(Duration timeout) {
    try {
      ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return this;
    } catch (ExecutionException e) {
      close();
      throw new AssertionFailedError(name + " stopped before it was ready" + lastWords());
    } catch (TimeoutException e) {
      close();
      throw new AssertionFailedError(name + " did not start within " + timeout.toSeconds() + " s" + lastWords());
    } catch (InterruptedException e) {
      close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  public String name() {
    return name;
  }

  /**
   * Sends one command and completes with the node's answer. The future fails with a {@link NodeError} when the node
   * answers with an error, and with an {@link AssertionFailedError} when the node dies first.
   */
  public CompletableFuture<String> ask(String command) {
    int id = nextId.getAndIncrement();
    CompletableFuture<String> answer = new CompletableFuture<>();
    pending.put(id, answer);
    try {
      synchronized (toNode) {
        toNode.write(id + " " + command.replace('\n', ' ') + "\n");
        toNode.flush();
      }
    } catch (IOException e) {
      pending.remove(id);
      answer.completeExceptionally(died("could not be sent '" + command + "'"));
    }
    return answer;
  }

  /** {@link #ask} and wait for the answer, for a test's own thread. */
  public String call(String command, Duration timeout) {
    try {
      return ask(command).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionFailedError(name + " did not answer '" + command + "' within " + timeout.toMillis()
          + " ms" + lastWords());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Waits up to {@code timeout} for the process to end by itself; its exit status, or -1 if it is still running. */
  public int awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  public boolean isAlive() {
    return process.isAlive() || process.descendants().anyMatch(ProcessHandle::isAlive);
  }

  public long pid() {
    return process.pid();
  }

  /** Kills the node and whatever it started, if still running, and waits until they are gone. Safe to call twice. */
  @Override
  public void close() {
    // The node's children first, while they can still be found: once the node dies, they are re-parented.
    List<ProcessHandle> family = new ArrayList<>(process.descendants().toList());
    family.add(process.toHandle());
    family.forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle member : family) {
      try {
        member.onExit().get(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        // killed with SIGKILL: it is going, whether or not we saw it go
      }
    }
    LIVE.remove(this);
  }

  /** The last lines the node printed, for a failure message; empty when it printed nothing. */
  public String lastWords() {
    if (!process.isAlive()) {
      try {
        output.join(2_000);  // a dead node's last lines may still be in the pipe
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (outputTail) {
      return outputTail.isEmpty() ? "" : ". Its last output:\n    " + String.join("\n    ", outputTail);
    }
  }

  private void readReplies(InputStream in) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        String[] parts = line.split(" ", 3);
        if (parts.length < 2) {
          continue;
        }
        String text = parts.length == 3 ? parts[2] : "";
        if (parts[0].equals("0")) {
          ready.complete(null);
          continue;
        }
        CompletableFuture<String> answer = pending.remove(Integer.parseInt(parts[0]));
        if (answer != null && parts[1].equals(NodeChannel.OK)) {
          answer.complete(text);
        } else if (answer != null) {
          answer.completeExceptionally(new NodeError(name, text));
        }
      }
    } catch (IOException | RuntimeException e) {
      // the node died; the code below fails whatever still waits
    }
    AssertionFailedError gone = died("exited (status " + exitStatus() + ") before answering");
    ready.completeExceptionally(gone);
    pending.values().forEach(f -> f.completeExceptionally(gone));
    pending.clear();
  }

  private String exitStatus() {
    try {
      return process.waitFor(2, TimeUnit.SECONDS) ? String.valueOf(process.exitValue()) : "still running";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  private AssertionFailedError died(String what) {
    return new AssertionFailedError(name + " " + what + lastWords());
  }

  private void keepTail(InputStream err) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(err, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        synchronized (outputTail) {
          outputTail.addLast(line.length() > 300 ? line.substring(0, 300) + "…" : line);
          if (outputTail.size() > OUTPUT_TAIL_LINES) {
            outputTail.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // the node is gone
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** The node answered a command with an error: the code under test failed it, or the command was wrong. */
  public static final class NodeError extends RuntimeException {
    private final String node;

    NodeError(String node, String message) {
      super(message);
      this.node = node;
    }

    public String node() {
      return node;
    }
  }
}
