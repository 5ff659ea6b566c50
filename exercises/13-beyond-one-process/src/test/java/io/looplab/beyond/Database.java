package io.looplab.beyond;

import org.h2.tools.Server;
import org.opentest4j.AssertionFailedError;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import static io.looplab.grader.testkit.Checks.require;

/**
 * The database both nodes share. By default an in-memory H2 database that this test serves over TCP on 127.0.0.1
 * (H2's server mode: each node connects to it as a client, so it is one database, not one per process). With
 * LOOPLAB_DB_URL set, the one it names instead, e.g. PostgreSQL (see the README).
 */
final class Database implements AutoCloseable {
  private static final AtomicInteger shows = new AtomicInteger();

  final String url;
  final String user;
  final String password;
  private final Server server;

  private Database(String url, String user, String password, Server server) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.server = server;
  }

  static Database start() {
    try {
      String external = System.getenv("LOOPLAB_DB_URL");
      Database db;
      if (external != null && !external.isBlank()) {
        db = new Database(external, env("LOOPLAB_DB_USER"), env("LOOPLAB_DB_PASSWORD"), null);
      } else {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        db = new Database("jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:looplab-seats;DB_CLOSE_DELAY=-1;"
            + "LOCK_TIMEOUT=10000", "sa", "", server);
      }
      db.execute("DROP TABLE IF EXISTS seats");
      db.execute("CREATE TABLE seats (show VARCHAR(64) PRIMARY KEY, free INT NOT NULL)");
      return db;
    } catch (SQLException e) {
      throw new AssertionFailedError("The test could not set up its database: " + e.getMessage());
    }
  }

  private static String env(String name) {
    String value = System.getenv(name);
    return value == null ? "" : value;
  }

  String newShow(int free) {
    String show = "show-" + shows.incrementAndGet();
    try (Connection c = connect(); PreparedStatement insert = c.prepareStatement("INSERT INTO seats VALUES (?, ?)")) {
      insert.setString(1, show);
      insert.setInt(2, free);
      insert.executeUpdate();
      return show;
    } catch (SQLException e) {
      throw new AssertionFailedError("The test could not add a show to the table: " + e.getMessage());
    }
  }

  int free(String show) {
    try (Connection c = connect(); PreparedStatement select = c.prepareStatement("SELECT free FROM seats WHERE show = ?")) {
      select.setString(1, show);
      try (ResultSet row = select.executeQuery()) {
        require(row.next(), "The show '" + show + "' is gone from the table: rows must be updated, never deleted.");
        return row.getInt(1);
      }
    } catch (SQLException e) {
      throw new AssertionFailedError("The test could not read the table: " + e.getMessage());
    }
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, password);
  }

  @Override
  public void close() {
    if (server != null) {
      server.stop();
    }
  }
}
