package io.looplab.background;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;

/**
 * Where the job gets its timers from: the three timer calls of {@link Vertx}, behind an interface, so that the job
 * runs on whatever clock it is given. In production that is Vert.x's own ({@link #of(Vertx)}); the graded tests give
 * it a clock they move by hand. Given code: do not change it.
 *
 * <p>The contract is Vert.x's: a handler runs on the context that set the timer, and is passed the timer's id. The
 * scheduler is not the job's: it is shared and outlives any one verticle, so a timer set on it stays set until it is
 * cancelled, whatever happens to the verticle that set it.
 */
public interface Scheduler {

  /** Calls {@code handler} once, {@code delayMillis} from now. Returns the timer's id, for {@link #cancelTimer}. */
  long setTimer(long delayMillis, Handler<Long> handler);

  /** Calls {@code handler} every {@code delayMillis}, the first time {@code delayMillis} from now. Returns its id. */
  long setPeriodic(long delayMillis, Handler<Long> handler);

  /** Cancels the timer {@code id}: it never fires again. True when it was still scheduled. */
  boolean cancelTimer(long id);

  /** The scheduler for production: Vert.x's own timers. */
  static Scheduler of(Vertx vertx) {
    return new Scheduler() {
      @Override
      public long setTimer(long delayMillis, Handler<Long> handler) {
        return vertx.setTimer(delayMillis, handler);
      }

      @Override
      public long setPeriodic(long delayMillis, Handler<Long> handler) {
        return vertx.setPeriodic(delayMillis, handler);
      }

      @Override
      public boolean cancelTimer(long id) {
        return vertx.cancelTimer(id);
      }
    };
  }
}
