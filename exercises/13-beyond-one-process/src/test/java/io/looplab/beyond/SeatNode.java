package io.looplab.beyond;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.looplab.grader.leaks.ShutdownCheck;
import io.looplab.grader.nodes.NodeChannel;
import io.looplab.grader.nodes.NodeProcess;
import io.looplab.grader.races.LocalLockNames;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.jdbcclient.JDBCConnectOptions;
import io.vertx.jdbcclient.JDBCPool;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Part of the grader, not of the exercise: the main class of every node process the tests start. A node runs your
 * {@link SqlSeats} or {@link ClusterSeats} in its own JVM, on its own event loop, and reserves when the test tells it
 * to. The availability check and the ledger it hands your code are the test's, reached over HTTP on 127.0.0.1, so
 * that the test decides when each one answers.
 *
 * <p>Usage: {@code SeatNode sql <jdbc-url> <user> <password> <test-port>} or
 * {@code SeatNode cluster <cluster-name> <own-port> <other-port> <test-port>}.
 */
public final class SeatNode {

  private static final Duration SQL_START = Duration.ofSeconds(60);
  /** Hazelcast takes about 5 s to form a two-member cluster on a busy 2-core machine; this is a ceiling, not a wait. */
  private static final Duration CLUSTER_START = Duration.ofSeconds(90);

  private final Vertx vertx;
  private final Context context;
  private final HttpClient http;
  private final int testPort;
  private final Pool pool;
  private final Map<String, Function<String, Future<Boolean>>> shows = new HashMap<>();
  private final Function<String, Function<String, Future<Boolean>>> seatsFor;

  private SeatNode(Vertx vertx, Pool pool, int testPort, boolean cluster) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.http = vertx.createHttpClient();
    this.testPort = testPort;
    this.pool = pool;
    this.seatsFor = cluster
        ? show -> new ClusterSeats(vertx, new HttpLedger(), show)::reserve
        : show -> new SqlSeats(vertx, pool, show, this::check)::reserve;
  }

  // ---- the test's side ---------------------------------------------------------------------------------------------

  /** Starts a node that reserves in the database at {@code jdbcUrl}; call {@link NodeProcess#awaitReady} next. */
  static NodeProcess launchSql(String name, String jdbcUrl, String user, String password, int testPort) {
    return NodeProcess.launch(name, SeatNode.class, List.of("sql", jdbcUrl, user, password, String.valueOf(testPort)));
  }

  /** Starts a Hazelcast cluster node on {@code ownPort} that joins {@code otherPort}, on 127.0.0.1 only. */
  static NodeProcess launchCluster(String name, String clusterName, int ownPort, int otherPort, int testPort) {
    return NodeProcess.launch(name, SeatNode.class, List.of("cluster", clusterName, String.valueOf(ownPort),
        String.valueOf(otherPort), String.valueOf(testPort)));
  }

  static Duration startTimeout(boolean cluster) {
    return cluster ? CLUSTER_START : SQL_START;
  }

  // ---- the node's side ---------------------------------------------------------------------------------------------

  public static void main(String[] args) {
    NodeChannel.run(() -> {
      SeatNode node = args[0].equals("sql") ? sqlNode(args) : clusterNode(args);
      node.warmUp();
      return new NodeChannel.Served(node.context, node::handle);
    });
  }

  private static SeatNode sqlNode(String[] args) {
    Vertx vertx = Vertx.vertx();
    Pool pool = JDBCPool.pool(vertx, new JDBCConnectOptions().setJdbcUrl(args[1]).setUser(args[2])
        .setPassword(args[3]), new PoolOptions().setMaxSize(4));
    return new SeatNode(vertx, pool, Integer.parseInt(args[4]), false);
  }

  private static SeatNode clusterNode(String[] args) {
    int ownPort = Integer.parseInt(args[2]);
    int otherPort = Integer.parseInt(args[3]);
    Config config = ConfigUtil.loadConfig();  // Vert.x's own maps and multimaps, then our network on top
    config.setClusterName(args[1]);           // a name per test run: never joins a stranger's cluster
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
    config.setProperty("hazelcast.socket.bind.any", "false");  // listen on 127.0.0.1 only
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    NetworkConfig network = config.getNetworkConfig().setPort(ownPort).setPortAutoIncrement(false);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2)
        .addMember("127.0.0.1:" + ownPort).addMember("127.0.0.1:" + otherPort);
    java.util.logging.Logger.getLogger("com.hazelcast").setLevel(java.util.logging.Level.WARNING);
    Vertx vertx = Vertx.builder()
        .with(new VertxOptions().setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0)))
        .withClusterManager(new HazelcastClusterManager(config))
        .buildClustered().await();
    return new SeatNode(vertx, null, Integer.parseInt(args[4]), true);
  }

  /** The first query and the first HTTP call pay for connections and class loading; pay them before "ready". */
  private void warmUp() {
    if (pool != null) {
      pool.query("SELECT 1").execute().await();
    }
    get("/ping").await();
  }

  private Future<String> handle(String verb, String argument) {
    switch (verb) {
      case "reserve": {
        String[] showAndWho = argument.split(" ", 2);
        return shows.computeIfAbsent(showAndWho[0], seatsFor).apply(showAndWho[1]).map(String::valueOf);
      }
      case "locks": {
        // For a message about a reservation that never answers: the local locks this node holds right now.
        Map<String, Integer> held = LocalLockNames.heldOrNone(vertx);
        return Future.succeededFuture(held.isEmpty() ? "none" : String.join(", ", held.keySet()));
      }
      case "quit": {
        List<String> leftovers = ShutdownCheck.leftoversOf(vertx);
        return http.close()
            .compose(v -> pool == null ? Future.succeededFuture() : pool.close())
            .compose(v -> vertx.close())
            .map(v -> leftovers.isEmpty() ? "clean" : String.join(", ", leftovers));
      }
      default:
        return Future.failedFuture("unknown command: " + verb);
    }
  }

  // ---- what your code is given -------------------------------------------------------------------------------------

  private Future<Boolean> check(String who) {
    return get("/check?who=" + URLEncoder.encode(who, StandardCharsets.UTF_8)).map(Boolean::parseBoolean);
  }

  private final class HttpLedger implements SeatLedger {
    @Override
    public Future<Integer> read(String show) {
      return get("/ledger/" + show).map(Integer::parseInt);
    }

    @Override
    public Future<Void> write(String show, int free) {
      return send(HttpMethod.PUT, "/ledger/" + show, String.valueOf(free)).mapEmpty();
    }
  }

  private Future<String> get(String uri) {
    return send(HttpMethod.GET, uri, "");
  }

  private Future<String> send(HttpMethod method, String uri, String body) {
    return http.request(method, testPort, "127.0.0.1", uri)
        .compose(request -> request.send(Buffer.buffer(body)))
        .compose(response -> response.body().compose(text -> answer(response, text.toString())));
  }

  private static Future<String> answer(HttpClientResponse response, String text) {
    return response.statusCode() == 200 ? Future.succeededFuture(text) : Future.failedFuture(text);
  }
}
