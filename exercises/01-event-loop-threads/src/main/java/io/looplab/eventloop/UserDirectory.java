package io.looplab.eventloop;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.CompletionStage;

/**
 * The company's user directory, as its vendor ships the client: two independent asynchronous lookups. Given code:
 * do not change it.
 *
 * <p>The client knows nothing about Vert.x. Each call returns at once; the answer arrives later and completes the
 * {@link CompletionStage} <b>on the client's own I/O thread</b>, not on a Vert.x thread. Whatever you chain on the
 * stage itself ({@code thenApply}, {@code whenComplete}) runs on that thread too.
 */
public interface UserDirectory {

  /** The user's profile, such as {@code {"name":"Ada","city":"London"}}. */
  CompletionStage<JsonObject> profile(String user);

  /** The user's orders, such as {@code ["book","lamp"]}. */
  CompletionStage<JsonArray> orders(String user);
}
