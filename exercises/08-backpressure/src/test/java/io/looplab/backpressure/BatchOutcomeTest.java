package io.looplab.backpressure;

import io.looplab.backpressure.IngestScene.Reply;
import io.looplab.downstream.Archive;
import io.looplab.grader.GradedVertxTest;
import io.looplab.grader.Points;
import io.looplab.grader.guard.GivenCode;
import io.looplab.grader.sync.ContextSettle;
import io.looplab.grader.testkit.Await;
import io.looplab.grader.testkit.WarmUp;
import io.vertx.core.Future;
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

import static io.looplab.grader.testkit.Checks.require;

/**
 * Grades how {@code PUT /batches/:name} answers when the archive does not simply succeed: a write that fails (a full
 * disk), and an end() whose future the test holds, then lets succeed or fail. The answer says what the archive
 * said: 201 only once end() has succeeded, 500 with the archive's reason when a write or end() fails.
 */
@GradedVertxTest
@Order(7)
@Timeout(value = 30, timeUnit = TimeUnit.SECONDS)
@GivenCode(value = Archive.class, is = "the slow archive behind PUT /batches/:name")
@DisplayName("08 Backpressure: what the archive says, the answer says")
class BatchOutcomeTest {

  static final long SIZE = 512 * 1024;

  /**
   * How long the test waits to see that no answer comes while end() is held. A 201 sent with end() still pending is
   * written in the same event-loop task that ended the stream (the test lets that loop settle first), and reaches
   * the client on loopback within a few milliseconds; the margin is for a busy machine.
   */
  static final Duration NO_ANSWER = Duration.ofMillis(500);

  static final String DISK_FULL = "disk full (the test's archive failed this write)";
  static final String CLOSE_FAILED = "the archive could not close the batch (the test's failure)";

  @BeforeAll
  static void warmUpTheJvm() {
    WarmUp.jvm(SceneWarmUp::steps);
  }

  @Test
  @Order(11)
  @Points(2)
  @DisplayName("when the archive fails a write, the batch is answered 500 with the archive's reason, and the client "
      + "is not kept waiting")
  void aFailedWriteIsAnswered500WithTheReason(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 4);
    scene.archive.failingAtWrite(3, DISK_FULL);
    BatchClient.Upload upload = scene.upload("doomed", SIZE);
    SlowArchive.Disk disk = awaitOpened(scene, "doomed");
    disk.open();
    Reply reply = Await.result(upload.response(), IngestScene.WAIT, "The archive failed a write of "
        + "PUT /batches/doomed (\"" + DISK_FULL + "\": the future of its 3rd write failed, and so does every write "
        + "after it, and end()), yet the request got no answer within " + Await.inWords(IngestScene.WAIT) + ". A copy that waits for the archive must hear its failures too: "
        + "the future of pipeTo fails, and a loop of your own must look at each write's future (or at end()'s) "
        + "and answer 500.");
    require(reply.status() == 500, "The archive failed a write of PUT /batches/doomed (\"" + DISK_FULL + "\"), so "
        + "the batch was not stored, yet the answer was " + reply.describe() + ". Answer 500 when the archive "
        + "fails.");
    require(reply.body().contains("disk full"), "The archive failed a write of PUT /batches/doomed with \""
        + DISK_FULL + "\", and the answer was " + reply.describe() + ": 500, but without the reason. Put the "
        + "failure's message in the body, so that whoever sent the batch knows what went wrong.");
    require(disk.writesAfterEnd() == 0 && disk.ends() <= 1, "After the failed write, your code wrote "
        + disk.writesAfterEnd() + " time(s) after ending the stream, and ended it " + disk.ends() + " time(s).");
  }

  @Test
  @Order(12)
  @Points(2)
  @DisplayName("201 comes only once the archive's end() has succeeded; an end() that fails is answered 500 with its "
      + "reason")
  void twoHundredOneOnlyOnceEndSucceeds(Vertx vertx) {
    IngestScene scene = IngestScene.deploy(vertx, 4);
    scene.archive.holdingEnds();

    BatchClient.Upload kept = scene.upload("kept", SIZE);
    SlowArchive.Disk disk = awaitOpened(scene, "kept");
    disk.open();
    awaitEndHeld(disk, upload(kept, "kept"));
    require(disk.bytesStored() == SIZE && disk.ends() == 1, "PUT /batches/kept: the archive stored "
        + disk.bytesStored() + " of " + SIZE + " bytes and was ended " + disk.ends() + " time(s) before the test "
        + "let end() complete.");
    require(ContextSettle.settle(disk.context(), IngestScene.WAIT), "The event loop that wrote the batch did not "
        + "settle within " + Await.inWords(IngestScene.WAIT) + ".");
    Future<Reply> early = kept.response();
    try {
      Await.outcome(early, NO_ANSWER, "no answer yet, as it should be");
    } catch (AssertionError stillWaiting) {
      // right: the answer waits for end()
    }
    if (early.isComplete()) {
      throw new AssertionFailedError("PUT /batches/kept was answered " + describe(early) + " while the archive's "
          + "end() had not completed: the archive had the bytes, but had not said it stored the batch. 201 is a "
          + "promise that the batch is stored; end() may still fail (a disk that cannot close the file). Answer "
          + "from end()'s future, or from the future of pipeTo, which completes with it, not when the request "
          + "ends.");
    }
    disk.completeEnd();
    Reply stored = Await.result(kept.response(), IngestScene.WAIT, "The archive's end() succeeded, yet "
        + "PUT /batches/kept got no answer within " + Await.inWords(IngestScene.WAIT) + ".");
    require(stored.status() == 201, "The archive's end() succeeded, so PUT /batches/kept should be answered 201, "
        + "but it was answered " + stored.describe() + ".");

    BatchClient.Upload lost = scene.upload("lost", SIZE);
    SlowArchive.Disk lostDisk = awaitOpened(scene, "lost");
    lostDisk.open();
    awaitEndHeld(lostDisk, upload(lost, "lost"));
    lostDisk.failEnd(CLOSE_FAILED);
    Reply failed = Await.result(lost.response(), IngestScene.WAIT, "The archive's end() failed (\"" + CLOSE_FAILED
        + "\"), yet PUT /batches/lost got no answer within " + Await.inWords(IngestScene.WAIT) + ": a failure of "
        + "end() must be answered too.");
    require(failed.status() == 500 && failed.body().contains("could not close"), "The archive's end() failed "
        + "with \"" + CLOSE_FAILED + "\", so PUT /batches/lost should be answered 500 with that reason, but it was "
        + "answered " + failed.describe() + ".");
  }

  private static String upload(BatchClient.Upload upload, String name) {
    return "PUT /batches/" + name + " (" + upload.bytesSent().get() / 1024 + " KiB sent by the client)";
  }

  private static String describe(Future<Reply> reply) {
    return reply.succeeded() ? reply.result().describe() : "with the failure " + reply.cause();
  }

  private static SlowArchive.Disk awaitOpened(IngestScene scene, String name) {
    long deadline = System.nanoTime() + IngestScene.WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      for (SlowArchive.Disk disk : scene.archive.opened()) {
        if (disk.name().equals(name)) {
          return disk;
        }
      }
      scene.archive.awaitOpened(20);
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    throw new AssertionFailedError("PUT /batches/" + name + " did not open a stream of the archive within "
        + Await.inWords(IngestScene.WAIT) + ": call archive.open(name) for each batch.");
  }

  /** Waits until the whole batch is stored and end() was called: its future is then the test's to settle. */
  private static void awaitEndHeld(SlowArchive.Disk disk, String what) {
    long deadline = System.nanoTime() + IngestScene.WAIT.toNanos();
    while (!disk.endHeld()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionFailedError(what + ": the archive stored " + disk.bytesStored() + " of " + SIZE
            + " bytes, and its stream was ended " + disk.ends() + " time(s), within " + Await.inWords(
            IngestScene.WAIT) + ". Write every chunk of the request, then end the stream once.");
      }
      // Polling the archive's figures, which the service's loop updates; not a synchronisation.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }
}
