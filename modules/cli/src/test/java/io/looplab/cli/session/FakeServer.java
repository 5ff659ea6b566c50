package io.looplab.cli.session;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A session server that misbehaves on purpose, over a plain socket on 127.0.0.1: each request is answered by the
 * test's {@link Behaviour}, which may answer normally, never answer, close the connection, or answer in pieces.
 * Every request it read is kept, in order, for the test to look at.
 */
public final class FakeServer implements AutoCloseable {

  /** One request as it arrived. */
  public record Request(String method, String path, Map<String, String> headers, String body) {
  }

  /** What to do with one request: write the answer (or not) on {@code out}. */
  @FunctionalInterface
  public interface Behaviour {
    void answer(Request request, OutputStream out) throws IOException, InterruptedException;
  }

  private final ServerSocket socket;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fake-session-server");
    t.setDaemon(true);
    return t;
  });
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());
  private volatile Behaviour behaviour;

  public FakeServer(Behaviour behaviour) throws IOException {
    this.behaviour = behaviour;
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.submit(this::accept);
  }

  public String url() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  public void behave(Behaviour next) {
    this.behaviour = next;
  }

  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** An answer with a JSON body and the given status. */
  public static void json(OutputStream out, int status, String body, String... extraHeaders) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    StringBuilder head = new StringBuilder("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n");
    for (String h : extraHeaders) {
      head.append(h).append("\r\n");
    }
    out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        open.add(client);
        threads.submit(() -> serve(client));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      Request request = read(client.getInputStream());
      if (request == null) {
        return;
      }
      requests.add(request);
      behaviour.answer(request, client.getOutputStream());
    } catch (IOException e) {
      // the client went away: nothing to answer
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Request read(InputStream in) throws IOException {
    String requestLine = line(in);
    if (requestLine == null || requestLine.isEmpty()) {
      return null;
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    String[] parts = requestLine.split(" ");
    return new Request(parts[0], parts[1], headers, new String(body, StandardCharsets.UTF_8));
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != -1) {
      if (b == '\n') {
        return bytes.toString(StandardCharsets.US_ASCII).replaceAll("\r$", "");
      }
      bytes.write(b);
    }
    return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.US_ASCII);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    synchronized (open) {
      for (Socket s : open) {
        s.close();
      }
    }
    threads.shutdownNow();
  }
}
