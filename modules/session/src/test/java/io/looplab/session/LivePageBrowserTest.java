package io.looplab.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.looplab.grader.internal.settings.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
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
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
    if (Settings.REQUIRE_CHROMIUM.isTrue()) {
      assertEquals(true, present, "looplab.require.chromium is true but " + CHROMIUM + " or " + DRIVER + " is missing");
    }
    assumeTrue(present, "no chromium or chromedriver here");
    Vertx vertx = Vertx.vertx();
    SessionServer server = SessionServer.start(vertx, new SessionOptions("127.0.0.1", 0, "Browser class", dataDir,
        null), (n, d) -> List.of()).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toString())
        .addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile);
    // Chromium writes ~/.cache and ~/.config even with its own profile folder; the kit's self-test checks that
    // nothing of a run touches the home folder, so the driver and its browser get a home inside the temp folder.
    Map<String, String> home = new HashMap<>();
    for (String variable : List.of("HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME")) {
      home.put(variable, profile.resolve("home").toString());
    }
    WebDriver browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
        .withEnvironment(home).build(), options);
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

  private static String post(HttpClient http, SessionServer server, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(true, response.statusCode() == 200 || response.statusCode() == 202, response.body());
    return response.body();
  }
}
