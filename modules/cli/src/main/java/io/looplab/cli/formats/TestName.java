package io.looplab.cli.formats;

import io.looplab.report.TestResult;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Java class and method of a graded test, read from its JUnit unique id ("[class:a.B]/[method:c()]"). */
record TestName(String className, String method) {

  private static final Pattern CLASS = Pattern.compile("\\[class:([^\\]]+)]");
  private static final Pattern METHOD = Pattern.compile("\\[(?:method|test-factory|test-template):([^(\\]]+)");

  static TestName of(TestResult test) {
    Matcher c = CLASS.matcher(test.key());
    Matcher m = METHOD.matcher(test.key());
    return new TestName(c.find() ? c.group(1) : "", m.find() ? m.group(1) : test.name());
  }

  String simpleClassName() {
    return className.substring(className.lastIndexOf('.') + 1);
  }
}
