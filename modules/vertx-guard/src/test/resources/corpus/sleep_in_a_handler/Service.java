package corpus.sleep_in_a_handler;

public final class Service {
  public static void work() throws Exception {
    Thread.sleep(5); // blocks here
  }
}
