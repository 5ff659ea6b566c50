package io.looplab.cli.formats;

import io.looplab.cli.engine.Scoreboard;
import io.looplab.report.ExerciseResult;
import io.looplab.report.TestResult;
import io.looplab.report.TestStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each format holds every outcome a grading can have (passed, failed, error, timeout, skipped, a compile error, a
 * message full of XML's special characters) in the shape its tool publishes, and says the same as our own report.
 */
class ResultFormatTest {

  private static final String NASTY = "Expected <5> & got \"4\": 'lost'\nsecond line\u0007 with a bell";

  @Test
  @DisplayName("exercism: results.json v3 of the published shape, a task per exercise, a message on every failure")
  void exercism() {
    JsonObject results = new JsonObject(ResultFormat.exercism.render(everyOutcome()));
    assertValid("exercism-results-v3.schema.json", results);
    assertEquals("fail", results.getString("status"));
    JsonArray tests = results.getJsonArray("tests");
    assertEquals(7, tests.size(), tests.encodePrettily());
    assertEquals(List.of("pass", "pass", "fail", "error", "error", "error", "fail"),
        tests.stream().map(t -> ((JsonObject) t).getString("status")).toList());
    assertEquals(List.of(1, 1, 2, 2, 2, 2, 3),
        tests.stream().map(t -> ((JsonObject) t).getInteger("task_id")).toList());
    assertEquals(NASTY, tests.getJsonObject(2).getString("message"));
    assertEquals("02-blocking-calls: the test lost", tests.getJsonObject(2).getString("name"));
    assertTrue(tests.getJsonObject(0).getString("test_code").startsWith("// QuoteVerticleTest.retries()"),
        "with no test file at hand, the test is named: " + tests.getJsonObject(0).encode());
  }

  @Test
  @DisplayName("exercism: test_code is the graded test method's own source, read from its test file")
  void exercismTestCode() {
    String file = "package io.looplab.blocking;\n\nclass QuoteVerticleTest {\n\n  @Test\n"
        + "  @DisplayName(\"retries\")\n  void retries(VertxTestContext ctx) {\n    String s = \"}\"; // }\n"
        + "    if (s.isEmpty()) {\n      ctx.failNow(\"{\");\n    }\n  }\n\n  void serves() {\n  }\n}\n";
    TestSource source = (exercise, test) -> TestMethods.method(file, TestName.of(test).method());
    JsonObject results = new JsonObject(ResultFormat.exercism.render(everyOutcome(), new ExportOptions(
        List.of("01-event-loop-threads", "02-blocking-calls", "03-execute-blocking"), "visible", source)));
    assertValid("exercism-results-v3.schema.json", results);
    assertEquals("@Test\n@DisplayName(\"retries\")\nvoid retries(VertxTestContext ctx) {\n  String s = \"}\"; // }\n"
        + "  if (s.isEmpty()) {\n    ctx.failNow(\"{\");\n  }\n}", results.getJsonArray("tests").getJsonObject(0)
        .getString("test_code"), "braces in strings and comments do not end the method");
    assertEquals("void serves() {\n}", results.getJsonArray("tests").getJsonObject(1).getString("test_code"));
    assertTrue(TestMethods.method(file, "absent").isEmpty());
  }

  @Test
  @DisplayName("gradescope: the visibility asked for on every result, and numbers by curriculum place whatever --only kept")
  void gradescopeVisibilityAndNumbers() {
    Scoreboard board = everyOutcome();
    Scoreboard only = new Scoreboard("exercises", List.of(board.exercises().get(1)));
    List<String> curriculum = List.of("01-event-loop-threads", "02-blocking-calls", "03-execute-blocking");
    for (String visibility : ExportOptions.VISIBILITIES) {
      JsonObject results = new JsonObject(ResultFormat.gradescope.render(only, new ExportOptions(curriculum,
          visibility, (e, t) -> java.util.Optional.empty())));
      assertValid("gradescope-results.schema.json", results);
      assertEquals(visibility, results.getString("visibility"));
      JsonArray tests = results.getJsonArray("tests");
      assertTrue(tests.stream().allMatch(t -> ((JsonObject) t).getString("visibility").equals(visibility)));
      assertEquals(List.of("2.1", "2.2", "2.3", "2.4"), tests.stream().map(t -> ((JsonObject) t)
          .getString("number")).toList(), "02's tests keep the numbers of the whole grading");
    }
    JsonObject whole = new JsonObject(ResultFormat.gradescope.render(board, new ExportOptions(curriculum, "hidden",
        (e, t) -> java.util.Optional.empty())));
    assertEquals("2.1", whole.getJsonArray("tests").getJsonObject(2).getString("number"));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new ExportOptions(curriculum,
        "sometimes", (e, t) -> java.util.Optional.empty()));
  }

  @Test
  @DisplayName("exercism: status error, with the compiler's message, only when no test could run at all")
  void exercismError() {
    JsonObject results = new JsonObject(ResultFormat.exercism.render(new Scoreboard("exercises",
        List.of(compileError()))));
    assertValid("exercism-results-v3.schema.json", results);
    assertEquals("error", results.getString("status"));
    assertTrue(results.getString("message").contains("Task.java:3: error"), results.encodePrettily());
  }

  @Test
  @DisplayName("gradescope: results.json of the published shape, with the same scores as the grade")
  void gradescope() {
    Scoreboard board = everyOutcome();
    JsonObject results = new JsonObject(ResultFormat.gradescope.render(board));
    assertValid("gradescope-results.schema.json", results);
    assertEquals(board.points(), results.getDouble("score"), 0.0);
    JsonArray tests = results.getJsonArray("tests");
    double max = tests.stream().mapToDouble(t -> ((JsonObject) t).getDouble("max_score")).sum();
    assertEquals(board.max(), max, 0.0);
    assertEquals("2.1", tests.getJsonObject(2).getString("number"));
    assertEquals(NASTY, tests.getJsonObject(2).getString("output"));
    assertTrue(results.getString("output").contains("03-execute-blocking: 0/4 (compile-error)"), results.encode());
  }

  @Test
  @DisplayName("junit: XML of Surefire's shape, a suite per exercise, counts that add up, messages kept intact")
  void junit() throws Exception {
    String xml = ResultFormat.junit.render(everyOutcome());
    SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(new StreamSource(resource("surefire-junit"
        + ".xsd"))).newValidator().validate(new StreamSource(new StringReader(xml)));
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    Element root = doc.getDocumentElement();
    assertEquals("7", root.getAttribute("tests"));
    assertEquals("2", root.getAttribute("failures"));
    assertEquals("2", root.getAttribute("errors"));
    assertEquals("1", root.getAttribute("skipped"));
    NodeList failures = doc.getElementsByTagName("failure");
    assertEquals(NASTY.replace('\u0007', '\uFFFD'), failures.item(0).getTextContent());
    Element firstCase = (Element) doc.getElementsByTagName("testcase").item(0);
    assertEquals("retries", firstCase.getAttribute("name"));
    assertEquals("io.looplab.blocking.QuoteVerticleTest", firstCase.getAttribute("classname"));
    NodeList cases = doc.getElementsByTagName("testcase");
    for (int i = 0; i < cases.getLength(); i++) {
      assertTrue(((Element) cases.item(i)).hasAttribute("time"), "every testcase has the time Surefire's XSD requires");
    }
  }

  @Test
  @DisplayName("classroom: the grading reporter's shape, with scores that add up to the grade and a message on every loss")
  void classroom() {
    Scoreboard board = everyOutcome();
    JsonObject results = new JsonObject(ResultFormat.classroom.render(board));
    assertValid("classroom-results.schema.json", results);
    assertEquals("fail", results.getString("status"));
    assertEquals(board.max(), results.getInteger("max_score"));
    JsonArray tests = results.getJsonArray("tests");
    assertEquals(board.points(), tests.stream().mapToInt(t -> ((JsonObject) t).getInteger("score")).sum());
    assertEquals(List.of("pass", "pass", "fail", "error", "error", "error", "fail"),
        tests.stream().map(t -> ((JsonObject) t).getString("status")).toList());
    assertEquals(NASTY, tests.getJsonObject(2).getString("message"));
    assertTrue(tests.getJsonObject(6).getString("message").contains("Task.java:3: error"), tests.encodePrettily());
    assertEquals("02-blocking-calls: the test lost (5 points)", tests.getJsonObject(2).getString("name"));
  }

  @Test
  @DisplayName("classroom: a report of many long failures is cut to fit the environment variable the reporter reads")
  void classroomFitsAnEnvironmentVariable() {
    List<TestResult> lost = new java.util.ArrayList<>();
    for (int i = 0; i < 150; i++) {
      lost.add(test("ManyTest", "lost" + i, 3, TestStatus.FAILED, "x".repeat(1_500)));
    }
    String json = ResultFormat.classroom.render(new Scoreboard("exercises", List.of(
        ExerciseResult.of("02-blocking-calls", "Second", lost))));
    int encoded = java.util.Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)).length();
    assertTrue(encoded < 128 * 1024, "base64 of the result is " + encoded + " bytes: over Linux's 128 KiB for one "
        + "environment variable, the reporter's step would not start");
    JsonObject results = new JsonObject(json);
    assertValid("classroom-results.schema.json", results);
    assertEquals(150, results.getJsonArray("tests").size());
    assertTrue(results.getJsonArray("tests").getJsonObject(0).getString("message").endsWith("log has the whole "
        + "message]"), results.getJsonArray("tests").getJsonObject(0).encode());
    String small = ResultFormat.classroom.render(everyOutcome());
    assertTrue(small.contains("Expected <5> & got") && !small.contains("cut to fit"),
        "a result that fits keeps every message whole: " + small);
  }

  @Test
  @DisplayName("the shapes catch what the tools would refuse: so the checks above can fail")
  void shapesRejectWrongReports() throws Exception {
    JsonObject exercism = new JsonObject(ResultFormat.exercism.render(everyOutcome()));
    exercism.getJsonArray("tests").getJsonObject(2).remove("message");
    assertInvalid("exercism-results-v3.schema.json", exercism);
    assertInvalid("exercism-results-v3.schema.json", new JsonObject().put("version", 3).put("status", "error"));
    JsonObject gradescope = new JsonObject(ResultFormat.gradescope.render(everyOutcome()));
    gradescope.getJsonArray("tests").getJsonObject(0).put("status", "ok");
    assertInvalid("gradescope-results.schema.json", gradescope);
    String xml = ResultFormat.junit.render(everyOutcome()).replace("type=\"failed\"", "");
    boolean refused = false;
    try {
      SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(new StreamSource(resource(
          "surefire-junit.xsd"))).newValidator().validate(new StreamSource(new StringReader(xml)));
    } catch (org.xml.sax.SAXException expected) {
      refused = true;
    }
    assertTrue(refused, "a <failure> without its type should not pass the XSD");
    String untimed = ResultFormat.junit.render(everyOutcome()).replaceFirst(" time=\"0\"", "");
    boolean refusedUntimed = false;
    try {
      SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(new StreamSource(resource(
          "surefire-junit.xsd"))).newValidator().validate(new StreamSource(new StringReader(untimed)));
    } catch (org.xml.sax.SAXException expected) {
      refusedUntimed = true;
    }
    assertTrue(refusedUntimed, "a <testcase> without its time should not pass the XSD");
    JsonObject classroom = new JsonObject(ResultFormat.classroom.render(everyOutcome()));
    classroom.getJsonArray("tests").getJsonObject(2).putNull("message");
    assertInvalid("classroom-results.schema.json", classroom);
    assertInvalid("classroom-results.schema.json", new JsonObject(ResultFormat.classroom.render(everyOutcome()))
        .put("max_score", "429"));
  }

  /** Three exercises: one passed, one with every kind of lost test, one that did not compile. */
  private static Scoreboard everyOutcome() {
    ExerciseResult passed = ExerciseResult.of("01-event-loop-threads", "First", List.of(
        test("QuoteVerticleTest", "retries", 3, TestStatus.PASSED, null),
        test("QuoteVerticleTest", "serves", 2, TestStatus.PASSED, null)));
    ExerciseResult failed = ExerciseResult.of("02-blocking-calls", "Second", List.of(
        test("SeatsTest", "lost", 5, TestStatus.FAILED, NASTY),
        test("SeatsTest", "threw", 2, TestStatus.ERROR, "IllegalStateException: boom"),
        test("SeatsTest", "hung", 2, TestStatus.TIMEOUT, "Did not finish within 90 s"),
        test("SeatsTest", "later", 1, TestStatus.SKIPPED, "Not run: the exercise was stopped before this test.")));
    return new Scoreboard("exercises", List.of(passed, failed, compileError()));
  }

  private static ExerciseResult compileError() {
    return ExerciseResult.of("03-execute-blocking", "Third", List.of(
        test("HashTest", "hashes", 4, TestStatus.PENDING, null)))
        .failedToCompile("Your code does not compile: Task.java:3: error: ';' expected");
  }

  private static TestResult test(String className, String method, int max, TestStatus status, String message) {
    TestResult t = TestResult.pending("[engine:junit-jupiter]/[class:io.looplab.blocking." + className + "]/[method:"
        + method + "()]", "the test " + method, max);
    return status == TestStatus.PENDING ? t : t.recorded(status, message);
  }

  private static void assertValid(String schema, JsonObject json) {
    OutputUnit result = validate(schema, json);
    assertTrue(result.getValid(), schema + ": " + result.getErrors() + "\n" + json.encodePrettily());
  }

  private static void assertInvalid(String schema, JsonObject json) {
    assertTrue(!validate(schema, json).getValid(), schema + " should refuse:\n" + json.encodePrettily());
  }

  private static OutputUnit validate(String schema, JsonObject json) {
    try (InputStream in = resource(schema)) {
      JsonObject schemaJson = new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return Validator.create(JsonSchema.of(schemaJson), new JsonSchemaOptions().setDraft(Draft.DRAFT202012)
          .setBaseUri("https://looplab.invalid/")).validate(json);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static InputStream resource(String name) {
    InputStream in = ResultFormatTest.class.getResourceAsStream("/formats/" + name);
    if (in == null) {
      throw new IllegalStateException("missing test resource formats/" + name);
    }
    return in;
  }
}
