package com.crmflow.workflow.template;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * A url template rendered so that a value fills the part of the url it stands in, and only that:
 * the template's own text decides where each {@code {{…}}} lands.
 *
 * <ul>
 *   <li>In the path, a value is one segment: every character but the unreserved ones (letters,
 *       digits, {@code -._~}) is percent-encoded, so {@code /}, {@code ?}, {@code #} and {@code %}
 *       in it are text ({@code "123#"} becomes {@code 123%23}).
 *   <li>In the query (or the fragment), a value is one value: encoded the same way, so {@code &},
 *       {@code =} and {@code #} in it add no parameter ({@code "true&admin=1"} becomes {@code
 *       true%26admin%3D1}).
 *   <li>Before the path (the scheme and authority), a value is written as it is: it chooses where
 *       the call goes, as {@code https://{{trigger.host}}/x} or {@code {{trigger.url}}} do (a node
 *       with a credential cannot have such a url). Where the template's text names the host itself
 *       ({@code https://api.example.com{{trigger.path}}}), the rendered url keeps that origin.
 * </ul>
 *
 * A rendered url whose origin (scheme, host, port) differs from the one the template's text names,
 * or whose path holds a {@code .} or {@code ..} segment (plain or encoded), is refused ({@link
 * Refused}, with a message that says why): the call would reach another place than the one written.
 *
 * <p>Deterministic and free of I/O, so workflow code may call it.
 */
public final class UrlTemplate {

  /** A url its values would move elsewhere; the message says how. */
  public static final class Refused extends IllegalArgumentException {
    Refused(String message) {
      super(message);
    }
  }

  private UrlTemplate() {}

  /** The part of a url a value lands in. */
  private enum Part {
    ORIGIN,
    PATH,
    QUERY
  }

  /**
   * The template with each variable filled in for its part.
   *
   * @throws Refused when the rendered url would reach another origin than the template's text
   *     names, or holds a dot segment
   */
  public static String render(String template, Map<String, Object> scope) {
    if (template == null) {
      return null;
    }
    StringBuilder literal = new StringBuilder();
    StringBuilder out = new StringBuilder();
    String movedBy = null;
    Integer firstInOrigin = null;
    Matcher m = TemplateReference.VARIABLE.matcher(template);
    int at = 0;
    while (m.find()) {
      String text = template.substring(at, m.start());
      literal.append(text);
      out.append(text);
      String value =
          TemplateResolver.asString(TemplateResolver.lookup(scope, m.group(1) + m.group(2)));
      Part part = partAt(literal);
      if (part == Part.ORIGIN) {
        if (firstInOrigin == null) {
          firstInOrigin = literal.length();
          movedBy = m.group();
        }
        out.append(value);
      } else {
        out.append(encoded(value));
      }
      at = m.end();
    }
    literal.append(template.substring(at));
    out.append(template.substring(at));
    String rendered = out.toString();
    String written =
        origin(
            literal.substring(
                0,
                Math.min(firstInOrigin == null ? literal.length() : firstInOrigin, end(literal))));
    if (written != null) {
      String reached = origin(rendered);
      if (!written.equals(reached)) {
        throw new Refused(
            "the url's values would move the call from "
                + written
                + " to "
                + (reached == null ? "an address that is no url" : reached)
                + " (through "
                + movedBy
                + "): a value fills the path or the query, it does not change where the call"
                + " goes");
      }
    }
    String dots = dotSegment(rendered);
    if (dots != null) {
      throw new Refused(
          "the url's path holds the segment '"
              + dots
              + "', which would reach another path than the one written: "
              + rendered);
    }
    return rendered;
  }

  /** Where a value at the end of this much of the template's text lands. */
  private static Part partAt(CharSequence literal) {
    int end = end(literal);
    if (end >= literal.length()) {
      return Part.ORIGIN;
    }
    for (int i = end; i < literal.length(); i++) {
      char c = literal.charAt(i);
      if (c == '?' || c == '#') {
        return Part.QUERY; // the fragment's values are encoded as the query's are
      }
    }
    return Part.PATH;
  }

  /**
   * Where the scheme and authority of the template's text end: at its first {@code /}, {@code ?} or
   * {@code #} after a leading {@code scheme://} (the text's length when there is none yet).
   */
  private static int end(CharSequence literal) {
    String text = literal.toString();
    int scheme = text.indexOf("://");
    int from = scheme >= 0 && firstOf(text.substring(0, scheme)) < 0 ? scheme + 3 : 0;
    int end = firstOf(text.substring(from));
    return end < 0 ? text.length() : from + end;
  }

  private static int firstOf(String text) {
    int first = -1;
    for (char c : new char[] {'/', '?', '#'}) {
      int at = text.indexOf(c);
      if (at >= 0 && (first < 0 || at < first)) {
        first = at;
      }
    }
    return first;
  }

  /** Percent-encodes every character but the unreserved ones, as UTF-8. */
  static String encoded(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }

  /**
   * {@code scheme://host:port} of a url, lowercased, the default port of http and https filled in;
   * null when it is no absolute url with a host.
   */
  static String origin(String url) {
    try {
      URI uri = new URI(url.trim());
      if (uri.getScheme() == null || uri.getHost() == null) {
        return null;
      }
      String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
      int port =
          uri.getPort() >= 0
              ? uri.getPort()
              : switch (scheme) {
                case "http" -> 80;
                case "https" -> 443;
                default -> -1;
              };
      return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    } catch (URISyntaxException notAUrl) {
      return null;
    }
  }

  /** The first {@code .} or {@code ..} segment of the url's path, as written; null: none. */
  private static String dotSegment(String url) {
    String path;
    try {
      path = new URI(url.trim()).getRawPath();
    } catch (URISyntaxException notAUrl) {
      return null; // the call fails on its own, naming the url
    }
    if (path == null) {
      return null;
    }
    for (String segment : path.split("/", -1)) {
      String plain = segment.replaceAll("(?i)%2e", ".");
      if (plain.equals(".") || plain.equals("..")) {
        return segment;
      }
    }
    return null;
  }
}
