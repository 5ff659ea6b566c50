package io.looplab.cli.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Runs a grading JVM under bubblewrap (Debian's package bubblewrap), for other people's code: since JDK 24 has no
 * SecurityManager, nothing inside the JVM can stop a submission, so the operating system does. The JVM sees:
 * <ul>
 *   <li>the whole file system read-only, except that exercise's own work folder and an empty /tmp of its own, so a
 *   submission can neither write into the instructor's home folder nor touch another learner's files; what the JVM
 *   must read from under /tmp (a kit, a JDK or a Maven repository kept there) is bound back in, read-only;</li>
 *   <li>a network namespace of its own with loopback alone (the graded tests serve and call 127.0.0.1), so it
 *   reaches nothing outside;</li>
 *   <li>a PID namespace of its own, so that every thread and process it starts ends with it;</li>
 *   <li>limits: {@value #ADDRESS_SPACE_KIB} KiB of address space (a JVM reserves much more than it uses, so this
 *   bounds the heap to a few GiB), and files of at most {@value #FILE_SIZE_KIB} KiB.</li>
 * </ul>
 * The number of processes is bounded by the PID namespace's lifetime, not a count: RLIMIT_NPROC does not bind root.
 */
public final class Sandbox {

  static final Path BWRAP = Path.of("/usr/bin/bwrap");
  static final long ADDRESS_SPACE_KIB = 6L * 1024 * 1024;
  static final long FILE_SIZE_KIB = 256L * 1024;

  /** The namespaces and mounts of every sandboxed JVM, and of the probe that checks bubblewrap can make them. */
  private static final List<String> NAMESPACES = List.of("--die-with-parent", "--unshare-pid", "--unshare-net",
      "--unshare-ipc", "--unshare-uts", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");

  private static volatile Optional<Sandbox> probed;

  private final Path bwrap;

  private Sandbox(Path bwrap) {
    this.bwrap = bwrap;
  }

  /** The sandbox, when bubblewrap is installed and can make namespaces here (checked once per run). */
  public static Optional<Sandbox> onThisMachine() {
    Optional<Sandbox> known = probed;
    if (known == null) {
      known = Files.isExecutable(BWRAP) && works(BWRAP) ? Optional.of(new Sandbox(BWRAP)) : Optional.empty();
      probed = known;
    }
    return known;
  }

  /** The one line said when submissions are graded without it. */
  public static String missingWarning() {
    return "Warning: submissions are not sandboxed (no working " + BWRAP + "): their code runs with your rights. "
        + "Install Debian's bubblewrap package to confine it.";
  }

  /**
   * {@code command} wrapped so that it runs confined, with {@code writable} the one folder it may change, and
   * {@code readable} the files and folders it needs to read (the kit, its class path, the JDK).
   */
  public List<String> wrap(List<String> command, Path writable, Collection<Path> readable) throws IOException {
    String dir = writable.toRealPath().toString();
    List<String> wrapped = new ArrayList<>(List.of(bwrap.toString()));
    wrapped.addAll(NAMESPACES);
    wrapped.addAll(List.of("--tmpfs", "/tmp"));
    for (Path hidden : hiddenByTmpfs(readable)) {
      wrapped.addAll(List.of("--ro-bind", hidden.toString(), hidden.toString()));
    }
    wrapped.addAll(List.of("--bind", dir, dir, "--chdir", dir, "--",
        "/bin/bash", "-c", "ulimit -v " + ADDRESS_SPACE_KIB + " && ulimit -f " + FILE_SIZE_KIB + " && exec \"$@\"",
        "sandboxed"));
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * Which of {@code readable} the sandbox's empty /tmp would hide, as real paths (a link into /tmp is hidden too),
   * without those inside another one: each is bound back in once.
   */
  static List<Path> hiddenByTmpfs(Collection<Path> readable) throws IOException {
    Path tmp = Path.of("/tmp");
    TreeSet<Path> under = new TreeSet<>();
    for (Path path : readable) {
      if (Files.exists(path)) {
        Path real = path.toRealPath();
        if (real.startsWith(tmp) && !real.equals(tmp)) {
          under.add(real);
        }
      }
    }
    List<Path> outermost = new ArrayList<>();
    for (Path path : under) {   // sorted, so a folder comes before what it holds
      if (outermost.stream().noneMatch(path::startsWith)) {
        outermost.add(path);
      }
    }
    return outermost;
  }

  private static boolean works(Path bwrap) {
    try {
      List<String> probe = new ArrayList<>(List.of(bwrap.toString()));
      probe.addAll(NAMESPACES);
      probe.add("true");
      Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
      p.getOutputStream().close();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
