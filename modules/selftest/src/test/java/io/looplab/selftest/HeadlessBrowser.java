package io.looplab.selftest;

import io.looplab.grader.internal.settings.Settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Chromium, headless, for proving that a page the kit writes really opens: .ci/run installs it (package
 * chromium), and sets looplab.require.chromium so that CI fails rather than skips when it is missing. The flags keep
 * it off the network, which this kind of machine closes anyway.
 */
final class HeadlessBrowser {

  static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  /** What a run printed and how it ended. */
  record Run(int exitCode, String output) {
  }

  private HeadlessBrowser() {
  }

  /** Chromium, when this machine has it. */
  static Optional<Path> find() {
    return Files.isExecutable(CHROMIUM) ? Optional.of(CHROMIUM) : Optional.empty();
  }

  static boolean required() {
    return Settings.REQUIRE_CHROMIUM.isTrue();
  }

  /** Opens {@code page} and writes a screenshot of it to {@code png}; {@code profile} is a fresh, empty folder. */
  static Run screenshot(Path chromium, Path page, Path png, Path profile) throws IOException, InterruptedException {
    return run(chromium, profile, "--window-size=1400,1000", "--screenshot=" + png, page.toUri().toString());
  }

  /** The page's DOM once Chromium has loaded it, as its serialised HTML. */
  static Run dumpDom(Path chromium, Path page, Path profile) throws IOException, InterruptedException {
    return run(chromium, profile, "--dump-dom", page.toUri().toString());
  }

  private static Run run(Path chromium, Path profile, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(false);
    // Chromium writes beside its profile too (dconf's cache, fontconfig's): into the user's home unless told
    // otherwise, which HostileMatrixTest, running beside this, would see as a change to the home folder.
    for (String variable : List.of("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")) {
      builder.environment().put(variable, profile.toString());
    }
    Process p = builder.start();
    p.getOutputStream().close();
    // stderr is Chromium's own chatter (no D-Bus here); stdout is what was asked for
    Thread drainErr = new Thread(() -> {
      try {
        p.getErrorStream().transferTo(java.io.OutputStream.nullOutputStream());
      } catch (IOException ignored) {
        // the process is gone
      }
    });
    drainErr.setDaemon(true);
    drainErr.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Run(-1, out);
    }
    return new Run(p.exitValue(), out);
  }
}
