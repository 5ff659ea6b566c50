package io.looplab.cli.session;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The learner's side of the session protocol's HTTP: one call at a time, each with a time limit on the connect and
 * one on the whole call, body included, so that nothing the learner types waits on a server that is away or slow.
 * A server's answer is read up to {@link #ANSWER_LIMIT}: a session server never says more.
 */
public final class SessionHttp {

  /** What join and every post allow by default: 2 s to connect, 5 s for the whole call. */
  public static final Duration CONNECT = Duration.ofSeconds(2);
  public static final Duration WHOLE_CALL = Duration.ofSeconds(5);
  /** A submission is up to 2 MiB: more time for the whole call on a slow room's network. */
  public static final Duration SUBMISSION_CALL = Duration.ofSeconds(30);

  static final int ANSWER_LIMIT = 64 * 1024;

  /** What a server answered: its status, its JSON body (empty when it sent none or no JSON), Retry-After. */
  public record Answer(int status, JsonObject body, Optional<String> retryAfter) {

    public boolean accepted() {
      return status >= 200 && status < 300;
    }

    /** The server's own sentence for a refusal, or a sentence made of the status. */
    public String error() {
      String said = body.getValue("error") instanceof String s ? s.strip() : "";
      return said.isEmpty() ? "the server answered " + status : said;
    }
  }

  /** The server could not be asked, or gave no whole answer in time: {@link #getMessage()} says which, in words. */
  public static final class Away extends IOException {
    Away(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final HttpClient client;
  private final Duration wholeCall;

  public SessionHttp() {
    this(CONNECT, WHOLE_CALL);
  }

  public SessionHttp(Duration connect, Duration wholeCall) {
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connect).followRedirects(HttpClient.Redirect.NEVER).build();
    this.wholeCall = wholeCall;
  }

  /** This client with another limit on the whole call (the same connect limit). */
  public SessionHttp withWholeCall(Duration limit) {
    return new SessionHttp(client.connectTimeout().orElse(CONNECT), limit);
  }

  public Answer get(String url) throws Away {
    return call(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  /** POSTs {@code body} (JSON) to {@code url}, with the learner's token when {@code token} is not null. */
  public Answer post(String url, String token, String body) throws Away {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return call(request);
  }

  private Answer call(HttpRequest.Builder request) throws Away {
    // The request's own timeout covers only the wait for the headers: the limit on the future covers the body too.
    CompletableFuture<HttpResponse<byte[]>> response = client.sendAsync(request.timeout(wholeCall).build(),
        info -> new LimitedBody(ANSWER_LIMIT));
    try {
      HttpResponse<byte[]> r = response.get(wholeCall.toMillis(), TimeUnit.MILLISECONDS);
      return new Answer(r.statusCode(), json(r.body()), r.headers().firstValue("Retry-After"));
    } catch (TimeoutException e) {
      response.cancel(true);
      throw new Away("no whole answer within " + seconds(wholeCall), e);
    } catch (InterruptedException e) {
      response.cancel(true);
      Thread.currentThread().interrupt();
      throw new Away("interrupted", e);
    } catch (ExecutionException e) {
      throw new Away(reason(e.getCause()), e.getCause());
    }
  }

  private static JsonObject json(byte[] body) {
    try {
      Object parsed = io.vertx.core.json.Json.decodeValue(new String(body, StandardCharsets.UTF_8));
      return parsed instanceof JsonObject object ? object : new JsonObject();
    } catch (DecodeException e) {
      return new JsonObject();
    }
  }

  /** The cause of a failed call, as the learner's line says it. */
  private String reason(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof HttpTimeoutException) {
        return t.getMessage() != null && t.getMessage().contains("connect")
            ? "no connection within " + seconds(client.connectTimeout().orElse(CONNECT))
            : "no answer within " + seconds(wholeCall);
      }
      if (t instanceof ConnectException) {
        return "the connection was refused";
      }
      if (t instanceof TooBig) {
        return "its answer was larger than a session server's";
      }
      if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
        return "that host name is not known";
      }
    }
    String message = cause.getMessage();
    return message == null || message.isBlank() ? "the connection failed (" + cause.getClass().getSimpleName() + ")"
        : "the connection failed (" + message + ")";
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private static final class TooBig extends IOException {
    TooBig() {
      super("answer too large");
    }
  }

  /** Collects an answer's bytes up to a limit; past it, it stops reading and fails the call. */
  private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final int limit;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    LimitedBody(int limit) {
      this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      for (ByteBuffer item : items) {
        if (bytes.size() + item.remaining() > limit) {
          subscription.cancel();
          result.completeExceptionally(new TooBig());
          return;
        }
        byte[] chunk = new byte[item.remaining()];
        item.get(chunk);
        bytes.writeBytes(chunk);
      }
    }

    @Override
    public void onError(Throwable throwable) {
      result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      result.complete(bytes.toByteArray());
    }
  }
}
