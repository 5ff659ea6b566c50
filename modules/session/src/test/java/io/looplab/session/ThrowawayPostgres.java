package io.looplab.session;

import io.looplab.grader.internal.settings.Settings;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A PostgreSQL server of the test's own: a fresh cluster in a temporary folder, on a free port of 127.0.0.1, trusting
 * the one user it was made with, gone when the test class ends. It uses the machine's server programs (Debian's
 * postgresql package, which .ci/run installs); without them the tests that need it are skipped, or fail when
 * looplab.require.postgres is true. PostgreSQL refuses to run as root, so as root the cluster is made and run as the
 * package's own postgres user.
 */
final class ThrowawayPostgres implements AutoCloseable {
  private static final Path VERSIONS = Path.of("/usr/lib/postgresql");
  private static final long LIMIT_SECONDS = 60;

  private final Path bin;
  private final Path folder;
  private final int port;
  private final boolean asPostgresUser;

  private ThrowawayPostgres(Path bin, Path folder, int port, boolean asPostgresUser) {
    this.bin = bin;
    this.folder = folder;
    this.port = port;
    this.asPostgresUser = asPostgresUser;
  }

  /** Starts one, or skips the calling test (fails it under looplab.require.postgres) when this machine has none. */
  static ThrowawayPostgres start() throws Exception {
    Optional<Path> bin = serverPrograms();
    if (Settings.REQUIRE_POSTGRES.isTrue()) {
      assertTrue(bin.isPresent(), "looplab.require.postgres is true but " + VERSIONS + "/*/bin/initdb is missing "
          + "(Debian's postgresql package)");
    }
    assumeTrue(bin.isPresent(), "no PostgreSQL server programs here (" + VERSIONS + "/*/bin/initdb)");
    boolean root = "root".equals(System.getProperty("user.name"));
    Path folder = Files.createTempDirectory("looplab-postgres-");
    ThrowawayPostgres server = new ThrowawayPostgres(bin.get(), folder, freePort(), root);
    if (root) {
      run(List.of("chown", "postgres", folder.toString()));
    }
    server.postgres("initdb", "-D", folder.resolve("data").toString(), "-U", "looplab", "--auth=trust",
        "-E", "UTF8", "--no-sync");
    server.postgres("pg_ctl", "-D", folder.resolve("data").toString(), "-l", folder.resolve("server.log").toString(),
        "-w", "-t", String.valueOf(LIMIT_SECONDS), "-o",
        "-p " + server.port + " -k " + folder + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
    return server;
  }

  /** Makes database {@code name} and gives its URL: a test of its own starts from empty tables. */
  String freshDatabase(String name) throws Exception {
    postgres("psql", "-h", "127.0.0.1", "-p", String.valueOf(port), "-U", "looplab", "-d", "postgres", "-q",
        "-c", "CREATE DATABASE " + name);
    return "postgresql://looplab@127.0.0.1:" + port + "/" + name;
  }

  /** A URL of this server's user for a database that does not exist, to see what the server says. */
  String urlOfMissingDatabase() {
    return "postgresql://looplab@127.0.0.1:" + port + "/no_such_database";
  }

  @Override
  public void close() throws Exception {
    try {
      postgres("pg_ctl", "-D", folder.resolve("data").toString(), "-m", "immediate", "-w", "stop");
    } finally {
      try (Stream<Path> all = Files.walk(folder)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private void postgres(String program, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    if (asPostgresUser) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.add(bin.resolve(program).toString());
    command.addAll(List.of(args));
    run(command);
  }

  private static void run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    // read while it runs, so that a chatty program never fills the pipe and stalls
    byte[] output = process.getInputStream().readAllBytes();
    if (!process.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not end within " + LIMIT_SECONDS + " s");
    }
    if (process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " exited " + process.exitValue() + ":\n" + new String(output));
    }
  }

  /** The newest installed version's bin folder that has initdb and pg_ctl. */
  private static Optional<Path> serverPrograms() throws IOException {
    if (!Files.isDirectory(VERSIONS)) {
      return Optional.empty();
    }
    try (Stream<Path> versions = Files.list(VERSIONS)) {
      return versions.map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparing(b -> versionOf(b.getParent().getFileName().toString())));
    }
  }

  private static int versionOf(String folder) {
    return folder.matches("\\d+") ? Integer.parseInt(folder) : 0;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
