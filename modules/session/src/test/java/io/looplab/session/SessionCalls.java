package io.looplab.session;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The session tests' one way to post to a server on 127.0.0.1, as a learner's kit does: a body, maybe a token. */
final class SessionCalls {

  private SessionCalls() {
  }

  static URI uri(SessionServer server, String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  /** POSTs {@code body} to {@code path}, with {@code Authorization: Bearer token} unless the token is null. */
  static HttpResponse<String> post(HttpClient http, SessionServer server, String path, String token, String body,
      Duration timeout) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(server, path)).timeout(timeout)
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
