package corpuslib;

/** A synchronous client library: it waits for its server, here a sleep. */
public final class Legacy {
  public static String fetch() throws Exception {
    Thread.sleep(5);
    return "data";
  }
}
