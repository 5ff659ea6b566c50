package corpus.library_that_sleeps;

import corpuslib.Legacy;

public final class Service {
  public static String work() throws Exception {
    return Legacy.fetch(); // blocks here
  }
}
