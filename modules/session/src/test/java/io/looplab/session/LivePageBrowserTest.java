package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.looplab.grader.internal.settings.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live page in a real headless Chromium: a posted result changes its cell without a reload, and the projector
 * shows no names. Skipped without Debian's chromium and chromium-driver, unless looplab.require.chromium is true.
 */
class LivePageBrowserTest {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  @TempDir Path dataDir;
  @TempDir Path profile;

  @Test
  @DisplayName("A result posted over HTTP changes its cell on the open live page without a reload; the projector has no names")
  void cellChangesLive() throws Exception {
    requireTheBrowser();
    Vertx vertx = Vertx.vertx();
    SessionServer server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "Browser class", dataDir,
        null), (n, d) -> List.of()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    WebDriver browser = browser();
    try {
      String token = new JsonObject(post(http, server, "/api/join", null,
          new JsonObject().put("code", server.sessionCode()).put("name", "Grace Hopper").encode())).getString("token");
      post(http, server, "/api/results", token, SessionServerTest.result("1", "02-blocking-calls", 0).encode());
      browser.get(server.instructorUrl());
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
      By cell = By.cssSelector("td[title]");
      wait.until(ExpectedConditions.attributeToBe(cell, "class", "failing"));
      // The page's EventSource must be open before the post, or the event is missed: wait for the stream.
      wait.until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-live", "yes"));
      long posted = System.nanoTime();
      post(http, server, "/api/results", token, SessionServerTest.result("2", "02-blocking-calls", 10).encode());
      wait.until(ExpectedConditions.attributeToBe(cell, "class", "full-marks"));
      System.out.printf("[session browser] post to cell change: %.1f ms%n", (System.nanoTime() - posted) / 1e6);
      assertEquals("✓", browser.findElement(cell).getText());
      browser.get(server.projectorUrl());
      assertFalse(browser.getPageSource().contains("Grace"), "the projector shows no names");
      Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
      Files.createDirectories(Path.of("target"));
      Files.copy(shot, Path.of("target", "projector.png"), StandardCopyOption.REPLACE_EXISTING);
    } finally {
      browser.quit();
      server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("Thirty learners working through 09 and 10 at once: every result they post changes its cell on the open page, none missed")
  void thirtyLearnersAtOnce() throws Exception {
    requireTheBrowser();
    Vertx vertx = Vertx.vertx();
    SessionServer server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "Room of thirty", dataDir,
        null), (n, d) -> List.of()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    WebDriver browser = browser();
    ExecutorService room = Executors.newFixedThreadPool(LEARNERS);
    try {
      Map<String, String> learnerOf = new HashMap<>();
      for (int i = 1; i <= LEARNERS; i++) {
        JsonObject joined = new JsonObject(post(http, server, "/api/join", null, new JsonObject()
            .put("code", server.sessionCode()).put("name", "Learner " + i).encode()));
        String token = joined.getString("token");
        learnerOf.put(token, joined.getString("learner"));
        // a first check of each exercise, so the page opens with every cell: a new column would reload the page
        for (String exercise : WORKED) {
          post(http, server, "/api/results", token, SessionServerTest.result(exercise + "-0", exercise, 0).encode());
        }
      }
      browser.get(server.instructorUrl());
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
      wait.until(ExpectedConditions.attributeToBe(By.tagName("body"), "data-live", "yes"));
      // The browser notes the moment each cell changes, by the machine's clock, which the posts are timed by too.
      ((JavascriptExecutor) browser).executeScript("window.seen=[];new MutationObserver(function(ms){ms.forEach("
          + "function(m){if(m.attributeName==='class'){window.seen.push([m.target.id,m.target.className,Date.now()]);}"
          + "});}).observe(document.querySelector('table'),{subtree:true,attributes:true,attributeFilter:['class']});");
      // Each learner checks 09 and 10 twice more, partial then full marks, all thirty at once.
      Map<String, Long> sentAt = new ConcurrentHashMap<>();
      List<Future<?>> learners = new ArrayList<>();
      for (String token : learnerOf.keySet()) {
        learners.add(room.submit(() -> {
          for (int step = 1; step <= 2; step++) {
            for (String exercise : WORKED) {
              String id = exercise + "-" + step;
              String body = SessionServerTest.result(id, exercise, step == 1 ? 5 : 10).encode();
              // timed from the moment it is sent: the server pushes the event before its 202 reaches the learner
              sentAt.put(LivePage.cellId(learnerOf.get(token), exercise) + " " + (step == 1 ? "partial" : "full-marks"),
                  System.currentTimeMillis());
              post(http, server, "/api/results", token, body);
            }
          }
          return null;
        }));
      }
      for (Future<?> learner : learners) {
        learner.get(60, TimeUnit.SECONDS);
      }
      int changes = LEARNERS * WORKED.size() * 2;
      wait.until(d -> ((Number) ((JavascriptExecutor) d).executeScript("return window.seen.length;")).intValue()
          >= changes);
      @SuppressWarnings("unchecked")
      List<List<Object>> seen = (List<List<Object>>) ((JavascriptExecutor) browser).executeScript("return window.seen;");
      List<Long> latencies = new ArrayList<>();
      for (List<Object> change : seen) {
        Long sent = sentAt.get(change.get(0) + " " + change.get(1));
        assertTrue(sent != null, "a cell changed to a standing nobody posted: " + change);
        latencies.add(((Number) change.get(2)).longValue() - sent);
      }
      assertEquals(changes, seen.size(), "each posted result changes its cell once: " + seen);
      assertEquals(sentAt.keySet(), new java.util.HashSet<>(seen.stream().map(c -> c.get(0) + " " + c.get(1))
          .toList()), "every posted result reached the open page");
      Collections.sort(latencies);
      System.out.printf("[session browser] %d learners, %d results at once: post sent to cell changed p50 %d ms, "
          + "max %d ms%n", LEARNERS, changes, latencies.get(latencies.size() / 2), latencies.get(latencies.size() - 1));
    } finally {
      room.shutdownNow();
      browser.quit();
      server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static final int LEARNERS = 30;
  private static final List<String> WORKED = List.of("09-lost-update", "10-reserve-then-confirm");

  private static void requireTheBrowser() {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
    if (Settings.REQUIRE_CHROMIUM.isTrue()) {
      assertEquals(true, present, "looplab.require.chromium is true but " + CHROMIUM + " or " + DRIVER + " is missing");
    }
    assumeTrue(present, "no chromium or chromedriver here");
  }

  private WebDriver browser() {
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toString())
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile);
    // Chromium writes ~/.cache and ~/.config even with its own profile folder; the kit's self-test checks that
    // nothing of a run touches the home folder, so the driver and its browser get a home inside the temp folder.
    Map<String, String> home = new HashMap<>();
    for (String variable : List.of("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")) {
      home.put(variable, profile.resolve("home").toString());
    }
    return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
        .withEnvironment(home).build(), options);
  }

  private static String post(HttpClient http, SessionServer server, String path, String token, String body)
      throws Exception {
    HttpResponse<String> response = SessionCalls.post(http, server, path, token, body, Duration.ofSeconds(10));
    assertEquals(true, response.statusCode() == 200 || response.statusCode() == 202, response.body());
    return response.body();
  }
}
