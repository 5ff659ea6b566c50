package io.looplab.backpressure;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * The test's client for {@code PUT /batches/:name}: it streams a batch of a given size in chunks of
 * {@link #CHUNK_BYTES}, each chunk's bytes different from the others', and it respects backpressure itself: it writes
 * while its connection has room and waits for the drain otherwise. So the bytes it has sent are the bytes the
 * service let through: a service that stops reading stops this client too.
 */
final class BatchClient {

  static final int CHUNK_BYTES = 64 * 1024;

  private BatchClient() {
  }

  /** An upload under way: its answer, and how far the client got. */
  record Upload(Future<IngestScene.Reply> response, AtomicLong bytesSent, AtomicBoolean allSent,
                AtomicLong lastProgress) {
  }

  static Upload upload(HttpClient client, Context context, int port, String name, long size) {
    AtomicLong sent = new AtomicLong();
    AtomicBoolean allSent = new AtomicBoolean();
    AtomicLong lastProgress = new AtomicLong(System.nanoTime());
    Promise<IngestScene.Reply> answer = Promise.promise();
    context.runOnContext(start -> client.request(new RequestOptions().setMethod(HttpMethod.PUT)
            .setHost("127.0.0.1").setPort(port)
            .setURI("/batches/" + name))
        .onFailure(answer::tryFail)
        .onSuccess(request -> {
          request.putHeader("Content-Length", Long.toString(size));
          request.response()
              .compose(response -> response.body().map(body -> new IngestScene.Reply(response.statusCode(),
                  response.getHeader("Retry-After"), body.toString())))
              .onComplete(answer);
          new Object() {
            void pump() {
              while (sent.get() < size && !request.writeQueueFull() && !answer.future().isComplete()) {
                long offset = sent.get();
                int length = (int) Math.min(CHUNK_BYTES, size - offset);
                Buffer chunk = chunk(offset, length);
                sent.addAndGet(length);
                lastProgress.set(System.nanoTime());
                if (sent.get() == size) {
                  request.end(chunk).onSuccess(v -> {
                    allSent.set(true);
                    lastProgress.set(System.nanoTime());
                  });
                } else {
                  request.write(chunk);
                }
              }
              if (sent.get() < size && !answer.future().isComplete()) {
                request.drainHandler(v -> pump());
              }
            }
          }.pump();
        }));
    return new Upload(answer.future(), sent, allSent, lastProgress);
  }

  /** The bytes at {@code offset} of every batch: a pattern that differs from one chunk to the next. */
  static Buffer chunk(long offset, int length) {
    byte[] bytes = new byte[length];
    long index = offset / CHUNK_BYTES;
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (index * 31 + i * 7 + (i >> 8));
    }
    return Buffer.buffer(bytes);
  }

  /** The CRC-32 of a whole batch of {@code size} bytes, as the archive should compute it. */
  static long crcOf(long size) {
    CRC32 crc = new CRC32();
    for (long offset = 0; offset < size; offset += CHUNK_BYTES) {
      crc.update(chunk(offset, (int) Math.min(CHUNK_BYTES, size - offset)).getBytes());
    }
    return crc.getValue();
  }
}
