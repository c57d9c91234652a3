package com.crmflow.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Refuses (400, problem details) a request whose path reads one way as sent and another once
 * decoded and normalised, before any guard or handler sees it: Tomcat's servlet mapping, Spring
 * MVC's patterns and a filter comparing text would otherwise each see a different path, and a guard
 * that reads one spelling lets through what the handler serves under another ({@code
 * /%61ctuator/prometheus}, {@code /actuator;x=1/prometheus}, {@code /%63onsole/}). Refused, as
 * Spring Security's {@code StrictHttpFirewall} refuses most of them, and more strictly: a {@code ;}
 * (path parameters), a percent-encoded unreserved character (letters, digits, {@code -._~}, which
 * RFC 3986 says mean the same unencoded), an encoded {@code /}, {@code \}, {@code ;}, {@code %} or
 * control character, a backslash, an empty segment ({@code //}) and a {@code .} or {@code ..}
 * segment. Other escapes (a space, non-ASCII text) stand for characters that have no other spelling
 * in a path and pass. Spring Security itself is not used: its filter chain would come with it, and
 * its firewall lets encoded letters through.
 */
public class PathSpellingFilter extends OncePerRequestFilter {

  private static final String PLAIN =
      "Send the path in its plain form: letters, digits and '-._~' unencoded; no ';' parameters;"
          + " no '.', '..' or empty segments; no '\\', and no encoded '/', '\\', ';' or '%'.";

  private final HandlerExceptionResolver exceptionResolver;

  public PathSpellingFilter(HandlerExceptionResolver exceptionResolver) {
    this.exceptionResolver = exceptionResolver;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    String disagreement = disagreement(path);
    if (disagreement != null) {
      exceptionResolver.resolveException(
          request,
          response,
          null,
          new ApiException(
              HttpStatus.BAD_REQUEST,
              "The request's path holds "
                  + disagreement
                  + ", so it reads differently as sent and as decoded. "
                  + PLAIN,
              List.of(),
              Map.of()));
      return;
    }
    chain.doFilter(request, response);
  }

  /**
   * What in the path (as sent, within the application) makes it read differently decoded, or null
   * when nothing does.
   */
  static String disagreement(String path) {
    if (path.indexOf(';') >= 0) {
      return "a ';' parameter";
    }
    if (path.indexOf('\\') >= 0) {
      return "a backslash";
    }
    for (int i = path.indexOf('%'); i >= 0; i = path.indexOf('%', i + 1)) {
      int value = i + 2 < path.length() ? hex(path.charAt(i + 1), path.charAt(i + 2)) : -1;
      if (value < 0) {
        return "a '%' that starts no escape";
      }
      char decoded = (char) value;
      String escape = path.substring(i, i + 3);
      if (unreserved(decoded)) {
        return "the escape " + escape + " of '" + decoded + "', which is the same written plainly";
      }
      if ("/\\;%".indexOf(decoded) >= 0) {
        return "the escape " + escape + " of '" + decoded + "'";
      }
      if (value < 0x20 || value == 0x7f) {
        return "the escape " + escape + " of a control character";
      }
    }
    if (path.contains("//")) {
      return "an empty segment ('//')";
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        return "a '" + segment + "' segment";
      }
    }
    return null;
  }

  private static boolean unreserved(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }

  private static int hex(char high, char low) {
    int h = Character.digit(high, 16);
    int l = Character.digit(low, 16);
    return h < 0 || l < 0 ? -1 : h * 16 + l;
  }
}
