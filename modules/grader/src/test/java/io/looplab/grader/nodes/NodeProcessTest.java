package io.looplab.grader.nodes;

import io.looplab.grader.leaks.ShutdownCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A node answers over its own channel, reports its failures and leftovers, and never outlives its test. */
class NodeProcessTest {

  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration ANSWER = Duration.ofSeconds(20);

  private NodeProcess node;

  @AfterEach
  void kill() {
    if (node != null) {
      node.close();
    }
  }

  private NodeProcess start() {
    node = NodeProcess.launch("node E", EchoNode.class, List.of()).awaitReady(START);
    return node;
  }

  @Test
  @DisplayName("answers come back by id, and what the node prints is never taken for an answer")
  void answersCommands() {
    NodeProcess n = start();
    var first = n.ask("echo one two");
    var second = n.ask("echo three");
    assertEquals("three", n.call("echo three", ANSWER));
    assertEquals("one two", first.join());
    assertEquals("three", second.join());
  }

  @Test
  @DisplayName("a failed command fails its future with the node's message and the node's name")
  void failuresCarryTheMessage() throws Exception {
    NodeProcess n = start();
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> n.ask("fail no such seat").get(20, TimeUnit.SECONDS));
    NodeProcess.NodeError error = assertInstanceOf(NodeProcess.NodeError.class, e.getCause());
    assertTrue(error.getMessage().contains("no such seat"), error.getMessage());
    assertEquals("node E", error.node());
  }

  @Test
  @DisplayName("a node that dies fails what waits for it, quoting its last output")
  void deathIsReported() {
    NodeProcess n = start();
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> n.call("exit", ANSWER));
    assertTrue(e.getMessage().contains("exited (status 3)"), e.getMessage());
    assertTrue(e.getMessage().contains("about to exit with status 3"), e.getMessage());
  }

  @Test
  @DisplayName("close kills the node and what it started")
  void closeKillsDescendants() {
    NodeProcess n = start();
    long grandchild = Long.parseLong(n.call("grandchild", ANSWER));
    assertTrue(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false));
    n.close();
    assertFalse(n.isAlive());
    assertFalse(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive).orElse(false), "the grandchild survived");
  }

  @Test
  @DisplayName("a node whose test JVM is killed halts by itself, even while it is still starting")
  void orphanedNodeHalts() throws Exception {
    NodeProcess n = start();
    ProcessHandle orphan = ProcessHandle.of(Long.parseLong(n.call("orphan", ANSWER))).orElseThrow();
    ProcessHandle.of(n.pid()).orElseThrow().destroyForcibly();  // kill -9 its test JVM, and only that
    orphan.onExit().get(30, TimeUnit.SECONDS);
    assertFalse(orphan.isAlive());
  }

  @Test
  @DisplayName("a node that cannot start exits at once, and the test quotes why")
  void failedStartIsReported() {
    node = NodeProcess.launch("node E", EchoNode.class, List.of("fail-to-start"));
    AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> node.awaitReady(START));
    assertTrue(e.getMessage().contains("no database at that address"), e.getMessage());
    assertEquals(1, node.awaitExit(Duration.ofSeconds(10)));
  }

  @Test
  @DisplayName("the shutdown check passes a node that quits clean, and names a local lock a node still holds")
  void shutdownCheckNamesLeftovers() {
    NodeProcess clean = start();
    ShutdownCheck.assertNodesShutDown(ANSWER, List.of(clean));
    assertFalse(clean.isAlive());

    NodeProcess holding = start();
    assertEquals("holding seats:gala", holding.call("lock seats:gala", ANSWER));
    AssertionFailedError e = assertThrows(AssertionFailedError.class,
        () -> ShutdownCheck.assertNodesShutDown(ANSWER, List.of(holding)));
    assertTrue(e.getMessage().contains("node E still held the local lock 'seats:gala'"), e.getMessage());
    assertFalse(holding.isAlive());
  }
}
