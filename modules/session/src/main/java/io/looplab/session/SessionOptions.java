package io.looplab.session;

import java.nio.file.Path;

/**
 * Where a session server listens and keeps its state. {@code databaseUrl} null keeps everything in an H2 file
 * database inside {@code dataDir}, so a server restarted on the same folder loses nothing.
 */
public record SessionOptions(String host, int port, String name, Path dataDir, String databaseUrl) {}
