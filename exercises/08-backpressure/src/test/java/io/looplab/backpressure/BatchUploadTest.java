package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.Archive;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Vertx;
import io.vertx.junit5.Timeout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static io.looplab.backpressure.SlowArchive.QUEUE_WRITES;
import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades {@code PUT /batches/:name}: a batch reaches the archive whole and in order, and a big batch is copied at the
 * archive's pace. The archive ({@link SlowArchive}) queues {@value SlowArchive#QUEUE_WRITES} writes and starts
 * stalled: while it stores nothing, the service must stop reading the request, so that the client, which respects
 * backpressure itself, stops sending.
 */
@GradedVertxTest
@Order(3)
@Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = Archive.class, is = "the slow archive behind PUT /batches/:name")
@DisplayName("08 Backpressure: a batch streamed into the slow archive")
class BatchUploadTest {

  /** A small batch: 256 KiB, stored by an archive that is open from the start. */
  static final long SMALL = 256 * 1024;

  /**
   * A big batch: 32 MiB. While the archive is stalled, a service that pauses the request lets through what the
   * socket buffers hold (measured: under 8 MiB on this kernel's loopback); a service that reads on lets all of it
   * through.
   */
  static final long BIG = 32L * 1024 * 1024;

  /** A write or two over the queue's size is a loop that checks before it writes, not one that never checks. */
  static final int QUEUE_SLACK = 1;

  /**
   * How long the stalled archive must see nothing new before the test takes the upload to be paused. A service that
   * reads on delivers chunks every millisecond or so; the margin is for a busy machine.
   */
  static final Duration QUIET = Duration.ofMillis(500);

  /** The most the stalled phase may last: a client that keeps sending for longer is not being held back. */
  static final Duration STALL_LIMIT = Duration.ofSeconds(15);

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(5)
  @Points(1)
  @DisplayName("a batch reaches the archive whole and in order, its stream is ended once, and the answer is 201")
  void aBatchIsStoredWhole(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 4);
    BatchClient.Upload upload = scene.upload("small", SMALL);
    SlowArchive.Disk disk = awaitOpened(scene, "small");
    disk.open();
    Reply reply = Await.result(upload.response(), IngestScene.WAIT, "PUT /batches/small (" + SMALL / 1024
        + " KiB) got no answer within " + Await.inWords(IngestScene.WAIT) + " though the archive stored everything "
        + "it was given (" + disk.bytesStored() + " bytes, stream ended " + disk.ends() + " time(s)). Answer 201 once "
        + "the batch is written and the stream ended.");
    require(reply.status() == 201, "PUT /batches/small should answer 201 once the batch is stored, but it "
        + "answered " + reply.describe() + ".");
    assertStoredWhole(disk, SMALL, "small");
  }

  @Test
  @Order(6)
  @Points(4)
  @DisplayName("a big batch is copied at the archive's pace: never more than its write queue in front of it, and "
      + "the request paused, not read into memory, while the archive stores nothing")
  void aBigBatchFollowsTheArchivesPace(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 4);
    long expectedCrc = BatchClient.crcOf(BIG);
    BatchClient.Upload upload = scene.upload("big", BIG);

    // The archive is stalled: it queues writes and stores nothing. Watch the client and the archive until both have
    // been still for QUIET (the request is paused), or until the service shows that it does not pause.
    long started = System.nanoTime();
    long stallEnds = started + STALL_LIMIT.toNanos();
    SlowArchive.Disk disk = null;
    while (true) {
      disk = disk != null ? disk : scene.archive.opened().stream().findFirst().orElse(null);
      int queuedAtMost = disk == null ? 0 : disk.maxQueued();
      if (queuedAtMost > QUEUE_WRITES + QUEUE_SLACK) {
        throw new AssertionFailedError("The archive's write queue holds " + QUEUE_WRITES + " writes, and its "
            + "writeQueueFull() said true from the " + QUEUE_WRITES + "th on, yet your code had "
            + Math.max(queuedAtMost, disk.queued()) + " writes waiting in front of it while it stored nothing ("
            + disk.writes() + " writes in all, "
            + upload.bytesSent().get() / 1024 + " KiB sent by the client so far). A copy loop that writes every "
            + "chunk as it arrives ignores the archive's pace: the batch piles up in memory in front of the slow "
            + "archive, as much of it as the client can send. Stop reading the request while writeQueueFull() is "
            + "true, and go on from the archive's drainHandler: request.pipeTo(batch) does both.");
      }
      if (upload.response().isComplete()) {
        boolean tooLarge = upload.response().succeeded() && upload.response().result().status() == 413;
        throw new AssertionFailedError("PUT /batches/big was answered " + describe(upload) + " while the archive "
            + (disk == null ? "had not even been opened" : "had stored nothing of it (" + disk.writes()
            + " writes queued)") + ", after the client had sent " + upload.bytesSent().get() / 1048576 + " MiB. "
            + (tooLarge ? "413 is a BodyHandler's answer: it read the batch into memory, up to its body limit "
            + "(10 MiB by default), before your handler could see any of it. A batch of any size must be streamed, "
            + "not read into memory: no BodyHandler on this route, and request.pipeTo(batch)." : "Answer once the "
            + "whole batch is written and the stream ended, as the future of pipeTo says."));
      }
      if (upload.allSent().get()) {
        throw new AssertionFailedError("The archive stored nothing" + (disk == null ? " (it had not even been "
            + "opened)" : " and had " + disk.queued() + " write(s) queued") + ", yet the client could send the "
            + "whole batch, " + BIG / 1048576 + " MiB: the service read the request on, into memory, instead of "
            + "pausing it. A paused request stops Vert.x reading its connection, and TCP makes the "
            + "client wait; a batch read into a Buffer (by a BodyHandler on this route, or by collecting the chunks) "
            + "costs its whole size in memory, for every upload at once. Stream the request into the archive with "
            + "request.pipeTo(batch).");
      }
      long lastProgress = Math.max(disk == null ? started : disk.lastProgressNanos(), upload.lastProgress().get());
      if (System.nanoTime() - lastProgress >= QUIET.toNanos()) {
        if (disk == null) {
          throw new AssertionFailedError("PUT /batches/big did not open a stream of the archive, and the client "
              + "has been held back for " + QUIET.toMillis() + " ms: call archive.open(name) for each batch, and "
              + "stream the request into it.");
        }
        break;
      }
      if (System.nanoTime() > stallEnds) {
        throw new AssertionFailedError("For " + STALL_LIMIT.toSeconds() + " s the archive stored nothing and the "
            + "client kept on sending (" + upload.bytesSent().get() / 1048576 + " MiB so far): the request was "
            + "never paused.");
      }
      // Polling the two counters, which the client's and the service's loops update; not a synchronisation.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    long sentWhileStalled = upload.bytesSent().get();

    disk.open();
    Reply reply = Await.result(upload.response(), STALL_LIMIT, "Once the archive stored again, PUT /batches/big "
        + "got no answer within " + STALL_LIMIT.toSeconds() + " s (" + disk.bytesStored() / 1048576 + " of "
        + BIG / 1048576 + " MiB stored). A paused request must be resumed from the archive's drain handler.");
    System.out.printf("[08 batch] %d MiB batch; %.1f MiB sent while the archive was stalled; at most %d writes "
        + "queued%n", BIG / 1048576, sentWhileStalled / 1048576.0, disk.maxQueued());
    require(reply.status() == 201, "PUT /batches/big should answer 201 once the batch is stored, but it answered "
        + reply.describe() + ".");
    require(disk.maxQueued() <= QUEUE_WRITES + QUEUE_SLACK, "Your code had " + disk.maxQueued() + " writes waiting "
        + "in front of the archive, whose queue holds " + QUEUE_WRITES + ": it wrote on while writeQueueFull() "
        + "was true.");
    assertStoredWhole(disk, BIG, "big");
    require(disk.crc() == expectedCrc, "The archive got " + BIG + " bytes of the batch, but not in the order they "
        + "were sent: write every chunk once, in the order it arrives.");
  }

  private static String describe(BatchClient.Upload upload) {
    return upload.response().succeeded() ? upload.response().result().describe()
        : "with the failure " + upload.response().cause();
  }

  private static SlowArchive.Disk awaitOpened(IngestScene scene, String name) {
    return scene.archive.awaitOpened(IngestScene.WAIT.toMillis()).orElseThrow(() -> new AssertionFailedError(
        "PUT /batches/" + name + " did not open a stream of the archive within " + Await.inWords(IngestScene.WAIT)
            + ": call archive.open(name) for each batch."));
  }

  private static void assertStoredWhole(SlowArchive.Disk disk, long size, String name) {
    require(disk.writesAfterEnd() == 0, "Your code wrote to the batch's stream after ending it ("
        + disk.writesAfterEnd() + " write(s)): end it once, after the last chunk.");
    require(disk.ends() == 1, "The batch's stream should be ended exactly once, after its last chunk, but it was "
        + "ended " + disk.ends() + " time(s).");
    require(disk.bytesStored() == size, "PUT /batches/" + name + " sent " + size + " bytes, but the archive stored "
        + disk.bytesStored() + ": every chunk of the request must reach the stream.");
    require(disk.crc() == BatchClient.crcOf(size), "The archive got all " + size + " bytes of " + name + ", but not "
        + "in the order they were sent: write every chunk once, in the order it arrives.");
  }
}
