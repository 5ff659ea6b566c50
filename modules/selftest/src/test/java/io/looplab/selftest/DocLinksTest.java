package io.looplab.selftest;

import io.looplab.cli.engine.Kit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every link between the kit's own documents leads somewhere: a relative link names a file the kit has, and a link
 * to a heading (#anchor) names a heading that file has, spelled as GitHub spells its anchors. A reader who follows
 * "see the guide" and lands nowhere stops trusting the rest.
 */
class DocLinksTest {

  private static final Kit kit = Kit.locate();
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6} +(.+?) *$");
  private static final Pattern FENCED = Pattern.compile("(?s)```.*?```");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`\n]*`");

  @Test
  @DisplayName("every relative link in README, CONTRIBUTING, docs/ and the exercises' READMEs and hints leads to a "
      + "file the kit has, and to a heading that file has")
  void everyLinkLeadsSomewhere() throws IOException {
    List<Path> documents = documents();
    assertTrue(documents.size() > 3, "found only " + documents);
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (Path doc : documents) {
      Matcher links = LINK.matcher(prose(Files.readString(doc)));
      while (links.find()) {
        String target = links.group(1);
        if (target.matches("^[a-z]+:.*")) {
          continue; // https:, mailto: and the like: the web, not the kit
        }
        checked++;
        int hash = target.indexOf('#');
        Path file = hash == 0 ? doc : doc.getParent().resolve(hash < 0 ? target : target.substring(0, hash)).normalize();
        String where = kit.root().relativize(doc) + ": (" + target + ")";
        if (!Files.exists(file)) {
          broken.add(where + " names " + kit.root().relativize(file) + ", which does not exist");
        } else if (hash >= 0 && !anchors(file).contains(target.substring(hash + 1))) {
          broken.add(where + " names the heading #" + target.substring(hash + 1) + ", which "
              + kit.root().relativize(file) + " does not have (its headings: " + anchors(file) + ")");
        }
      }
    }
    assertTrue(checked > 0, "no relative link found in " + documents);
    assertEquals(List.of(), broken, "links that lead nowhere");
  }

  @Test
  @DisplayName("a heading's anchor is spelled as GitHub spells it, so that the check above can fail")
  void anchorsAreSpelledAsGitHubDoes() {
    assertEquals(List.of("autograding-on-every-push-github-classroom-and-gitlab-ci", "the-heat-map",
        "01-event-loop-threads", "after-full-marks-break-it-on-purpose", "the-heat-map-1"),
        anchorsOf("# Autograding on every push: GitHub Classroom and GitLab CI\n## The heat map\n### "
            + "01-event-loop-threads\n## After full marks: break it on purpose\n## The heat map\n"));
  }

  private static List<Path> documents() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(kit.root().resolve("README.md"), kit.root().resolve("CONTRIBUTING.md")));
    for (String folder : List.of("docs", "exercises")) {
      try (Stream<Path> files = Files.walk(kit.root().resolve(folder), 2)) {
        files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
      }
    }
    return docs.stream().filter(Files::exists).toList();
  }

  /** The text without code: a link in a code block or a code span is an example, not a link. */
  private static String prose(String markdown) {
    return CODE_SPAN.matcher(FENCED.matcher(markdown).replaceAll("")).replaceAll("");
  }

  private static Set<String> anchors(Path file) {
    try {
      return new HashSet<>(anchorsOf(Files.readString(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, "-1", "-2" for a repeated heading. */
  static List<String> anchorsOf(String markdown) {
    List<String> anchors = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    Matcher headings = HEADING.matcher(FENCED.matcher(markdown).replaceAll(""));
    while (headings.find()) {
      String slug = headings.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
          .replace(' ', '-');
      int times = seen.merge(slug, 1, Integer::sum);
      anchors.add(times == 1 ? slug : slug + "-" + (times - 1));
    }
    return anchors;
  }
}
