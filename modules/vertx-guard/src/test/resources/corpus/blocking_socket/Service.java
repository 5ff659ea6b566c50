package corpus.blocking_socket;

import java.net.ServerSocket;
import java.net.Socket;

public final class Service {
  public static void work() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      try (Socket socket = new Socket("127.0.0.1", server.getLocalPort())) { // blocks here
        socket.getOutputStream().write(1);
      }
    }
  }
}
