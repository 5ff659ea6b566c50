package corpus.file_read;

import java.nio.file.Files;
import java.nio.file.Path;

public final class Service {
  public static String work() throws Exception {
    Path file = Path.of(System.getProperty("java.io.tmpdir"), "corpus-file-read.txt");
    return Files.exists(file) ? Files.readString(file) : Files.readString(Path.of(System.getProperty("java.home"), "release")); // blocks here
  }
}
