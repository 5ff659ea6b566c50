package corpus.allowed_by_the_project;

import java.nio.file.Files;
import java.nio.file.Path;

public final class Service {
  public static String work() throws Exception {
    return Config.load();
  }

  /** A small file read once: allowed to block by the test's @GuardedVertxTest. */
  static final class Config {
    static String load() throws Exception {
      return Files.readString(Path.of(System.getProperty("java.home"), "release"));
    }
  }
}
