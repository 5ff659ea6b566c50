package corpus.join_a_future;

import java.util.concurrent.CompletableFuture;

public final class Service {
  public static int work() {
    CompletableFuture<Integer> later = new CompletableFuture<>();
    CompletableFuture.delayedExecutor(50, java.util.concurrent.TimeUnit.MILLISECONDS).execute(() -> later.complete(42));
    return later.join(); // blocks here
  }
}
