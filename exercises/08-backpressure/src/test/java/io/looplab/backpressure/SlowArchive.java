package io.looplab.backpressure;

import io.looplab.downstream.Archive;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.streams.WriteStream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * The slow archive the tests put behind {@code PUT /batches/:name}. Each batch's stream ({@link Disk}) has a write
 * queue of {@link #QUEUE_WRITES} writes, and it starts <b>stalled</b>: it queues what it is given and stores
 * nothing, until the test {@link Disk#open() opens} it; from then on it stores whatever is queued on the next turn
 * of its event loop. It keeps no bytes, only their count and a CRC-32 of them in the order they were stored, and the
 * most writes it ever had waiting: that is how a copy loop that ignores {@code writeQueueFull()} shows.
 */
final class SlowArchive implements Archive {

  /** How many writes a batch's stream queues before {@code writeQueueFull()} says true. */
  static final int QUEUE_WRITES = 4;

  private final List<Disk> opened = new ArrayList<>();
  private int failAtWrite;
  private String failure;
  private boolean holdEnds;

  /**
   * The streams opened from now on fail their {@code write}-th write (from 1) with {@code reason}, when they store it,
   * and every write and end() after it: a disk that filled up. What was queued behind the failed write is dropped.
   */
  synchronized SlowArchive failingAtWrite(int write, String reason) {
    failAtWrite = write;
    failure = reason;
    return this;
  }

  /**
   * The streams opened from now on store their writes as usual, but hold end()'s future until the test settles it
   * with {@link Disk#completeEnd()} or {@link Disk#failEnd(String)}: an archive that takes its time to close a batch.
   */
  synchronized SlowArchive holdingEnds() {
    holdEnds = true;
    return this;
  }

  @Override
  public synchronized WriteStream<Buffer> open(String name) {
    Disk disk = new Disk(name, failAtWrite, failure, holdEnds);
    opened.add(disk);
    notifyAll();
    return disk;
  }

  /** The stream of the first batch opened, waiting up to {@code millis} for it; empty if none was opened. */
  synchronized Optional<Disk> awaitOpened(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    try {
      while (opened.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return opened.stream().findFirst();
  }

  synchronized List<Disk> opened() {
    return List.copyOf(opened);
  }

  /** One batch's stream. Its methods run on the event loop that writes to it; the test reads its figures. */
  static final class Disk implements WriteStream<Buffer> {

    private record Pending(Buffer chunk, Promise<Void> promise) {
    }

    private final String name;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final CRC32 crc = new CRC32();
    private final List<Promise<Void>> endPromises = new ArrayList<>();
    private Context context;
    private boolean open;
    private boolean flushScheduled;
    private boolean wasFull;
    private Handler<Void> drainHandler;
    private long bytesStored;
    private int writes;
    private int maxQueued;
    private int ends;
    private int writesAfterEnd;
    private int storedOrFailed;
    private long lastProgress = System.nanoTime();
    private final int failAtWrite;
    private final String failure;
    private final boolean holdEnd;
    private String failedWith;
    private int writesFailed;
    private int endsFailed;

    Disk(String name) {
      this(name, 0, null, false);
    }

    Disk(String name, int failAtWrite, String failure, boolean holdEnd) {
      this.name = name;
      this.failAtWrite = failAtWrite;
      this.failure = failure;
      this.holdEnd = holdEnd;
    }

    String name() {
      return name;
    }

    @Override
    public synchronized Future<Void> write(Buffer chunk) {
      remember(Vertx.currentContext());
      Promise<Void> promise = Promise.promise();
      if (ends > 0) {
        writesAfterEnd++;
        promise.fail(new IllegalStateException("the batch " + name + " was already ended"));
        return promise.future();
      }
      writes++;
      if (failedWith != null) {
        writesFailed++;
        progress();
        promise.fail(new IllegalStateException(failedWith));
        return promise.future();
      }
      queue.add(new Pending(chunk.copy(), promise));
      maxQueued = Math.max(maxQueued, queue.size());
      wasFull |= writeQueueFull();
      progress();
      scheduleFlush();
      return promise.future();
    }

    @Override
    public synchronized Future<Void> end() {
      remember(Vertx.currentContext());
      ends++;
      progress();
      Promise<Void> promise = Promise.promise();
      endPromises.add(promise);
      scheduleFlush();
      return promise.future();
    }

    private void remember(Context current) {
      if (context == null) {
        context = current;
      }
    }

    private void progress() {
      lastProgress = System.nanoTime();
      notifyAll();
    }

    /** From now on, store what is queued on the next turn of the stream's event loop. */
    synchronized void open() {
      open = true;
      scheduleFlush();
    }

    private void scheduleFlush() {
      if (!open || flushScheduled) {
        return;
      }
      flushScheduled = true;
      if (context == null) {
        flush();
      } else {
        context.runOnContext(v -> flush());
      }
    }

    private void flush() {
      List<Promise<Void>> written = new ArrayList<>();
      List<Promise<Void>> failed = new ArrayList<>();
      List<Promise<Void>> ended = List.of();
      Handler<Void> drain = null;
      String endFailure;
      synchronized (this) {
        flushScheduled = false;
        while (!queue.isEmpty()) {
          Pending pending = queue.poll();
          storedOrFailed++;
          if (failedWith == null && failAtWrite > 0 && storedOrFailed >= failAtWrite) {
            failedWith = failure;
          }
          if (failedWith != null) {
            writesFailed++;
            failed.add(pending.promise());
            continue;
          }
          crc.update(pending.chunk().getBytes());
          bytesStored += pending.chunk().length();
          written.add(pending.promise());
        }
        if (wasFull && drainHandler != null) {
          wasFull = false;
          drain = drainHandler;
        }
        endFailure = failedWith;
        if (ends > 0 && (!holdEnd || endFailure != null)) {
          ended = List.copyOf(endPromises);
          endPromises.clear();
        }
        progress();
      }
      written.forEach(Promise::tryComplete);
      failed.forEach(p -> p.tryFail(new IllegalStateException(endFailure)));
      if (drain != null) {
        drain.handle(null);
      }
      settleEnds(ended, endFailure);
    }

    private void settleEnds(List<Promise<Void>> ended, String endFailure) {
      if (endFailure != null) {
        synchronized (this) {
          endsFailed += ended.size();
        }
      }
      ended.forEach(p -> {
        if (endFailure == null) {
          p.tryComplete();
        } else {
          p.tryFail(new IllegalStateException(endFailure));
        }
      });
    }

    /** Settles a held end(): succeeds it (null) or fails it with {@code reason}, on the stream's event loop. */
    private void settleHeldEnd(String reason) {
      Runnable settle = () -> {
        List<Promise<Void>> ended;
        synchronized (this) {
          ended = List.copyOf(endPromises);
          endPromises.clear();
          progress();
        }
        settleEnds(ended, reason);
      };
      Context on;
      synchronized (this) {
        on = context;
      }
      if (on == null) {
        settle.run();
      } else {
        on.runOnContext(v -> settle.run());
      }
    }

    /** Lets a held end() succeed. */
    void completeEnd() {
      settleHeldEnd(null);
    }

    /** Fails a held end() with {@code reason}. */
    void failEnd(String reason) {
      settleHeldEnd(reason);
    }

    /** Whether end() was called and its future is still held by the test. */
    synchronized boolean endHeld() {
      return ends > 0 && !endPromises.isEmpty() && queue.isEmpty();
    }

    /** The context that wrote to this stream first (null before any write). */
    synchronized Context context() {
      return context;
    }

    synchronized int writesFailed() {
      return writesFailed;
    }

    synchronized int endsFailed() {
      return endsFailed;
    }

    @Override
    public synchronized boolean writeQueueFull() {
      return queue.size() >= QUEUE_WRITES;
    }

    /** The archive decides the size of its own queue: {@link #QUEUE_WRITES}. */
    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
      return this;
    }

    @Override
    public synchronized WriteStream<Buffer> drainHandler(Handler<Void> handler) {
      drainHandler = handler;
      return this;
    }

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
      return this;
    }

    synchronized long bytesStored() {
      return bytesStored;
    }

    synchronized long crc() {
      return crc.getValue();
    }

    synchronized int writes() {
      return writes;
    }

    synchronized int queued() {
      return queue.size();
    }

    synchronized int maxQueued() {
      return maxQueued;
    }

    synchronized int ends() {
      return ends;
    }

    synchronized int writesAfterEnd() {
      return writesAfterEnd;
    }

    synchronized long lastProgressNanos() {
      return lastProgress;
    }
  }
}
