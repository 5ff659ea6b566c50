package io.looplab.cli.session;

import io.looplab.cli.engine.UsageError;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The address of a session server as a learner types it, checked and made plain: http(s)://host[:port], no path. */
public final class SessionUrl {

  private SessionUrl() {
  }

  /** {@code typed} as "http://host:port" (no trailing slash), or a UsageError saying what a good one looks like. */
  public static String parse(String typed) {
    String text = typed == null ? "" : typed.strip();
    if (!text.contains("://")) {
      // What the serve line shows is http://...; a bare host:port is what people copy from a slide.
      text = "http://" + text;
    }
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw bad(typed);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean plainPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/");
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !plainPath
        || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      throw bad(typed);
    }
    return scheme + "://" + uri.getRawAuthority();
  }

  private static UsageError bad(String typed) {
    return new UsageError("'" + typed + "' is not a session server's address: it looks like http://192.168.1.20:8080 "
        + "(copy it from the line your instructor shows)");
  }
}
