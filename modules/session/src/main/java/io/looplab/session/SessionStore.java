package io.looplab.session;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.jdbcclient.JDBCConnectOptions;
import io.vertx.jdbcclient.JDBCPool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.DatabaseException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The session's state in SQL: the code and key, the learners, their tokens and their results. Every call returns a
 * future; the JDBC client runs the statements on its own worker threads, so the event loop never waits on the disk.
 * By default the database is an H2 file in the data folder; a {@code postgresql://} URL puts it in PostgreSQL
 * instead, through Vert.x's own asynchronous client. The statements are the same for both (standard SQL; only the
 * parameter marks differ, see {@link #sql}).
 */
final class SessionStore {
  /** SQLState of a unique-key violation, the same in H2 and PostgreSQL: a retried result already stored. */
  private static final String DUPLICATE_KEY = "23505";

  private final Pool pool;
  /** PostgreSQL's client numbers its parameters ($1, $2, ...) where JDBC writes ?. */
  private final boolean numberedParameters;

  private SessionStore(Pool pool, boolean numberedParameters) {
    this.pool = pool;
    this.numberedParameters = numberedParameters;
  }

  static Future<SessionStore> open(Vertx vertx, SessionOptions options) {
    String url = options.databaseUrl();
    PoolOptions poolOptions = new PoolOptions().setMaxSize(4);
    SessionStore store;
    if (url == null) {
      Path file = options.dataDir().toAbsolutePath().resolve("session");
      JDBCConnectOptions connect = new JDBCConnectOptions().setJdbcUrl("jdbc:h2:file:" + file);
      store = new SessionStore(JDBCPool.pool(vertx, connect, poolOptions), false);
    } else if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
      PgConnectOptions connect;
      try {
        connect = PgConnectOptions.fromUri(url);
      } catch (RuntimeException e) {
        return Future.failedFuture(new IllegalArgumentException("The database URL " + url + " is not one PostgreSQL "
            + "takes (postgresql://user:password@host:port/database): " + e.getMessage()));
      }
      // A database that is away must not hold the server's start for long.
      NetClientOptions network = new NetClientOptions().setConnectTimeout(5_000);
      store = new SessionStore(PgBuilder.pool().with(poolOptions).with(network).connectingTo(connect).using(vertx)
          .build(), true);
    } else {
      return Future.failedFuture(new IllegalArgumentException("The database URL " + url + " is not a postgresql:// "
          + "URL: give one (postgresql://user:password@host:port/database), or none to keep the session in an H2 "
          + "file in the data folder"));
    }
    return store.createTables().map(store).recover(failure -> store.pool.close()
        .transform(closed -> Future.failedFuture(failure)));
  }

  /** The statement as this database's client takes it: JDBC's ? marks, or PostgreSQL's $1, $2, ... */
  private String sql(String statement) {
    if (!numberedParameters) {
      return statement;
    }
    StringBuilder numbered = new StringBuilder();
    int n = 0;
    boolean inLiteral = false;
    for (char c : statement.toCharArray()) {
      if (c == '\'') {
        inLiteral = !inLiteral;
      }
      if (c == '?' && !inLiteral) {
        numbered.append('$').append(++n);
      } else {
        numbered.append(c);
      }
    }
    return numbered.toString();
  }

  private Future<Void> createTables() {
    List<String> ddl = List.of(
        "CREATE TABLE IF NOT EXISTS meta (k VARCHAR(40) PRIMARY KEY, v VARCHAR(200) NOT NULL)",
        "CREATE TABLE IF NOT EXISTS learners (id VARCHAR(40) PRIMARY KEY, name VARCHAR(60) NOT NULL UNIQUE)",
        "CREATE TABLE IF NOT EXISTS tokens (token VARCHAR(40) PRIMARY KEY, learner VARCHAR(40) NOT NULL)",
        "CREATE TABLE IF NOT EXISTS results (id VARCHAR(100) PRIMARY KEY, learner VARCHAR(40) NOT NULL,"
            + " exercise VARCHAR(100) NOT NULL, standing VARCHAR(20) NOT NULL, points INT NOT NULL,"
            + " maxpoints INT NOT NULL, at VARCHAR(40) NOT NULL, body VARCHAR(65536) NOT NULL,"
            // the order of arrival: numbered by the database, so two results stored at once never share a number
            + " seq BIGINT GENERATED ALWAYS AS IDENTITY)",
        "CREATE TABLE IF NOT EXISTS submissions (id VARCHAR(140) PRIMARY KEY, learner VARCHAR(40) NOT NULL,"
            + " status VARCHAR(20) NOT NULL, reason VARCHAR(2000), results VARCHAR(1000000))");
    Future<Void> chain = Future.succeededFuture();
    for (String statement : ddl) {
      chain = chain.compose(v -> pool.query(statement).execute().mapEmpty());
    }
    return chain;
  }

  /** The value kept under {@code key}, made by {@code maker} and stored the first time. */
  Future<String> meta(String key, String made) {
    return pool.preparedQuery(sql("SELECT v FROM meta WHERE k = ?")).execute(Tuple.of(key)).compose(rows -> {
      if (rows.size() > 0) {
        return Future.succeededFuture(rows.iterator().next().getString(0));
      }
      return pool.withTransaction(conn -> conn.preparedQuery(sql("INSERT INTO meta (k, v) VALUES (?, ?)"))
          .execute(Tuple.of(key, made)).map(made));
    });
  }

  /** The learner's id for {@code name}, made if new, and a fresh token for them. */
  Future<String> join(String name, String newId, String token) {
    return pool.withTransaction(conn -> conn.preparedQuery(sql("SELECT id FROM learners WHERE name = ?"))
        .execute(Tuple.of(name))
        .compose(rows -> {
          if (rows.size() > 0) {
            return Future.succeededFuture(rows.iterator().next().getString(0));
          }
          return conn.preparedQuery(sql("INSERT INTO learners (id, name) VALUES (?, ?)"))
              .execute(Tuple.of(newId, name)).map(newId);
        })
        .compose(id -> conn.preparedQuery(sql("INSERT INTO tokens (token, learner) VALUES (?, ?)"))
            .execute(Tuple.of(token, id)).map(id)));
  }

  /** The learner a token belongs to, or null. */
  Future<Learner> learnerOf(String token) {
    return pool.preparedQuery(sql(
            "SELECT l.id, l.name FROM tokens t JOIN learners l ON l.id = t.learner WHERE t.token = ?"))
        .execute(Tuple.of(token))
        .map(rows -> rows.size() == 0 ? null : learner(rows.iterator().next()));
  }

  /** Stores a result once; true if it is new, false if that id was stored before (a client's retry). */
  Future<Boolean> storeResult(String learner, LearnerResult result) {
    // In a transaction of its own: a pooled connection that once ran a transaction may be handed back with
    // auto-commit off, and a plain insert on it would then never be committed (seen in the restart test).
    return pool.withTransaction(conn -> conn.preparedQuery(sql(
            "INSERT INTO results (id, learner, exercise, standing, points, maxpoints, at, body)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"))
        .execute(Tuple.from(List.of(learner + "/" + result.id(), learner, result.exercise(), result.standing().word(),
            result.points(), result.max(), result.at(), result.body().encode())))
        .map(true))
        .recover(failure -> isDuplicate(failure) ? Future.succeededFuture(false) : Future.failedFuture(failure));
  }

  private static boolean isDuplicate(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.sql.SQLException sql && DUPLICATE_KEY.equals(sql.getSQLState())) {
        return true;
      }
      if (t instanceof DatabaseException database && DUPLICATE_KEY.equals(database.getSqlState())) {
        return true;
      }
    }
    return false;
  }

  /** Records a queued submission; false if the learner sent that id before (a client's retry). */
  Future<Boolean> storeSubmission(String id, String learner) {
    return pool.withTransaction(conn -> conn.preparedQuery(sql(
            "INSERT INTO submissions (id, learner, status) VALUES (?, ?, 'queued')"))
        .execute(Tuple.of(id, learner)).map(true))
        .recover(failure -> isDuplicate(failure) ? Future.succeededFuture(false) : Future.failedFuture(failure));
  }

  /** The outcome of a grading: status graded with the results as JSON, or error with the reason. */
  Future<Void> gradedSubmission(String id, String status, String reason, String results) {
    return pool.withTransaction(conn -> conn.preparedQuery(sql(
            "UPDATE submissions SET status = ?, reason = ?, results = ? WHERE id = ?"))
        .execute(Tuple.of(status, reason, results, id)).mapEmpty());
  }

  /** Every submission: id, learner, status, reason, results (JSON text or null). */
  Future<List<JsonObject>> submissions() {
    return pool.query("SELECT id, learner, status, reason, results FROM submissions ORDER BY id").execute()
        .map(rows -> {
          List<JsonObject> all = new ArrayList<>();
          rows.forEach(row -> all.add(new JsonObject().put("id", row.getString(0)).put("learner", row.getString(1))
              .put("status", row.getString(2)).put("reason", row.getString(3)).put("results", row.getString(4))));
          return all;
        });
  }

  Future<List<Learner>> learners() {
    return pool.query("SELECT id, name FROM learners ORDER BY name").execute().map(rows -> {
      List<Learner> all = new ArrayList<>();
      rows.forEach(row -> all.add(learner(row)));
      return all;
    });
  }

  /** Every stored result, oldest first, as its posted JSON with the learner's id added. */
  Future<List<JsonObject>> results() {
    return pool.query("SELECT learner, body FROM results ORDER BY seq").execute().map(rows -> {
      List<JsonObject> all = new ArrayList<>();
      rows.forEach(row -> all.add(new JsonObject(row.getString(1)).put("learner", row.getString(0))));
      return all;
    });
  }

  private static Learner learner(Row row) {
    return new Learner(row.getString(0), row.getString(1));
  }

  Future<Void> close() {
    return pool.close();
  }

  record Learner(String id, String name) {}
}
