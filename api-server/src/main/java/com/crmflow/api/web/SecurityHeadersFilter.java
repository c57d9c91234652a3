package com.crmflow.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Headers that tell browsers how to treat every answer: no content-type sniffing and no referrer,
 * on the API as on the console. The console ({@code /console}) also gets a Content-Security-Policy
 * that loads scripts, styles and data from this origin only, allows no inline script or style
 * element (React Flow's node styles are set through the DOM, which a policy does not govern), and
 * lets no page frame it; ConsoleBrowserTest runs the console under it.
 */
public class SecurityHeadersFilter extends OncePerRequestFilter {

  /** The console's policy: what its built files need, and nothing else. */
  public static final String CONSOLE_POLICY =
      String.join(
          "; ",
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self'",
          "object-src 'none'",
          "base-uri 'self'",
          "form-action 'self'",
          "frame-ancestors 'none'");

  private static final String CONSOLE = "/console";

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("Referrer-Policy", "no-referrer");
    if (RequestPaths.isUnder(request, CONSOLE)) {
      response.setHeader("Content-Security-Policy", CONSOLE_POLICY);
      response.setHeader("X-Frame-Options", "DENY");
    }
    chain.doFilter(request, response);
  }
}
