package io.looplab.cli.session;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's HTTP: every failure is an Away with a reason in words; answers are read whole but never too big. */
class SessionHttpTest {

  private final SessionHttp http = new SessionHttp(Duration.ofSeconds(2), Duration.ofSeconds(5));

  @Test
  @DisplayName("an answer larger than 64 KiB is not read to its end: the call fails, saying it was too large")
  void answerTooBig() throws Exception {
    try (FakeServer flood = new FakeServer((r, out) -> FakeServer.json(out, 200, "x".repeat(200_000)))) {
      SessionHttp.Away away = assertThrows(SessionHttp.Away.class, () -> http.get(flood.url() + "/api/ping"));
      assertEquals("its answer was larger than a session server's", away.getMessage());
    }
  }

  @Test
  @DisplayName("a port nothing listens on: the connection was refused")
  void refused() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    SessionHttp.Away away = assertThrows(SessionHttp.Away.class,
        () -> http.post("http://127.0.0.1:" + port + "/api/results", "t", "{}"));
    assertEquals("the connection was refused", away.getMessage());
  }

  @Test
  @DisplayName("an error answer's own sentence is kept; an answer with no JSON gets a sentence of its status")
  void errorSentences() throws Exception {
    try (FakeServer server = new FakeServer((r, out) -> FakeServer.json(out, r.path().equals("/a") ? 403 : 502,
        r.path().equals("/a") ? "{\"error\":\"That is not this session's code.\"}" : "<html>bad gateway</html>"))) {
      assertEquals("That is not this session's code.", http.get(server.url() + "/a").error());
      SessionHttp.Answer gateway = http.get(server.url() + "/b");
      assertEquals(502, gateway.status());
      assertEquals("the server answered 502", gateway.error());
      assertTrue(gateway.body().isEmpty());
    }
  }
}
