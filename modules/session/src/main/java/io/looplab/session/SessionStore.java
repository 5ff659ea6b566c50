package io.looplab.session;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.jdbcclient.JDBCConnectOptions;
import io.vertx.jdbcclient.JDBCPool;
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
 */
final class SessionStore {
  /** SQLState of a unique-key violation, the same in H2 and PostgreSQL: a retried result already stored. */
  private static final String DUPLICATE_KEY = "23505";

  private final Pool pool;

  private SessionStore(Pool pool) {
    this.pool = pool;
  }

  static Future<SessionStore> open(Vertx vertx, SessionOptions options) {
    if (options.databaseUrl() != null) {
      return Future.failedFuture(new IllegalArgumentException(
          "This server keeps its session in an H2 file; a database URL is not supported yet."));
    }
    Path file = options.dataDir().toAbsolutePath().resolve("session");
    JDBCConnectOptions connect = new JDBCConnectOptions().setJdbcUrl("jdbc:h2:file:" + file);
    Pool pool = JDBCPool.pool(vertx, connect, new PoolOptions().setMaxSize(4));
    SessionStore store = new SessionStore(pool);
    return store.createTables().map(store);
  }

  private Future<Void> createTables() {
    List<String> ddl = List.of(
        "CREATE TABLE IF NOT EXISTS meta (k VARCHAR(40) PRIMARY KEY, v VARCHAR(200) NOT NULL)",
        "CREATE TABLE IF NOT EXISTS learners (id VARCHAR(40) PRIMARY KEY, name VARCHAR(60) NOT NULL UNIQUE)",
        "CREATE TABLE IF NOT EXISTS tokens (token VARCHAR(40) PRIMARY KEY, learner VARCHAR(40) NOT NULL)",
        "CREATE TABLE IF NOT EXISTS results (id VARCHAR(100) PRIMARY KEY, learner VARCHAR(40) NOT NULL,"
            + " exercise VARCHAR(100) NOT NULL, standing VARCHAR(20) NOT NULL, points INT NOT NULL,"
            + " maxpoints INT NOT NULL, at VARCHAR(40) NOT NULL, body VARCHAR(65536) NOT NULL,"
            + " seq BIGINT NOT NULL)",
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
    return pool.preparedQuery("SELECT v FROM meta WHERE k = ?").execute(Tuple.of(key)).compose(rows -> {
      if (rows.size() > 0) {
        return Future.succeededFuture(rows.iterator().next().getString(0));
      }
      return pool.withTransaction(conn -> conn.preparedQuery("INSERT INTO meta (k, v) VALUES (?, ?)")
          .execute(Tuple.of(key, made)).map(made));
    });
  }

  /** The learner's id for {@code name}, made if new, and a fresh token for them. */
  Future<String> join(String name, String newId, String token) {
    return pool.withTransaction(conn -> conn.preparedQuery("SELECT id FROM learners WHERE name = ?")
        .execute(Tuple.of(name))
        .compose(rows -> {
          if (rows.size() > 0) {
            return Future.succeededFuture(rows.iterator().next().getString(0));
          }
          return conn.preparedQuery("INSERT INTO learners (id, name) VALUES (?, ?)")
              .execute(Tuple.of(newId, name)).map(newId);
        })
        .compose(id -> conn.preparedQuery("INSERT INTO tokens (token, learner) VALUES (?, ?)")
            .execute(Tuple.of(token, id)).map(id)));
  }

  /** The learner a token belongs to, or null. */
  Future<Learner> learnerOf(String token) {
    return pool.preparedQuery("SELECT l.id, l.name FROM tokens t JOIN learners l ON l.id = t.learner WHERE t.token = ?")
        .execute(Tuple.of(token))
        .map(rows -> rows.size() == 0 ? null : learner(rows.iterator().next()));
  }

  /** Stores a result once; true if it is new, false if that id was stored before (a client's retry). */
  Future<Boolean> storeResult(String learner, LearnerResult result) {
    // In a transaction of its own: a pooled connection that once ran a transaction may be handed back with
    // auto-commit off, and a plain insert on it would then never be committed (seen in the restart test).
    return pool.withTransaction(conn -> conn.preparedQuery(
            "INSERT INTO results (id, learner, exercise, standing, points, maxpoints, at, body, seq)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM results))")
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
    }
    return false;
  }

  /** Records a queued submission; false if the learner sent that id before (a client's retry). */
  Future<Boolean> storeSubmission(String id, String learner) {
    return pool.withTransaction(conn -> conn.preparedQuery(
            "INSERT INTO submissions (id, learner, status) VALUES (?, ?, 'queued')")
        .execute(Tuple.of(id, learner)).map(true))
        .recover(failure -> isDuplicate(failure) ? Future.succeededFuture(false) : Future.failedFuture(failure));
  }

  /** The outcome of a grading: status graded with the results as JSON, or error with the reason. */
  Future<Void> gradedSubmission(String id, String status, String reason, String results) {
    return pool.withTransaction(conn -> conn.preparedQuery(
            "UPDATE submissions SET status = ?, reason = ?, results = ? WHERE id = ?")
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
