package com.crmflow.api.trigger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

/**
 * The tenant's quota on the public trigger, taken first, before the body is read: every call to a
 * tenant's trigger path counts (a wrong secret too). Every answer carries {@code RateLimit-Policy}
 * and {@code RateLimit} (draft-ietf-httpapi-ratelimit-headers-11); a call over the quota gets a 429
 * problem with {@code Retry-After}, and nothing is stored.
 *
 * <p>The 429 is written here, not by the MVC error handling: a flood of refused calls costs as
 * little as it can. It is sent after the refusal delay (the time until a call fits, at most {@code
 * crm.trigger.quota.refusal-delay}), from a timer, without holding a request thread: a caller that
 * sends again at once, ignoring Retry-After, is slowed to one call per delay and connection instead
 * of spinning on refusals and taking the machine's cores from other tenants' work.
 */
class TriggerQuotaFilter extends OncePerRequestFilter {

  static final String PATH = "/api/webhooks/automation/";

  /** Decodes the path (and strips the context path), as Spring MVC's own matching does. */
  private static final UrlPathHelper PATHS = new UrlPathHelper();

  private final TriggerQuotas quotas;
  private final Duration refusalDelay;
  private final ScheduledExecutorService timer;

  TriggerQuotaFilter(TriggerQuotas quotas, Duration refusalDelay) {
    this.quotas = quotas;
    this.refusalDelay = refusalDelay;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "trigger-quota-refusals");
              thread.setDaemon(true);
              return thread;
            });
  }

  void close() {
    timer.shutdownNow();
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !quotas.enabled() || !decodedPath(request).startsWith(PATH);
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    UUID tenant = tenantOf(decodedPath(request));
    if (tenant == null) {
      chain.doFilter(request, response); // not a tenant id: the controller answers 404
      return;
    }
    TriggerQuotas.Check check = quotas.take(tenant);
    response.setHeader("RateLimit-Policy", check.policyField());
    response.setHeader("RateLimit", check.limitField());
    if (check.decision().allowed()) {
      chain.doFilter(request, response);
      return;
    }
    long retryAfter = check.decision().retryAfterSeconds();
    long delayMillis = Math.min(refusalDelay.toMillis(), TimeUnit.SECONDS.toMillis(retryAfter));
    if (delayMillis <= 0 || !request.isAsyncSupported()) {
      refuse(response, request.getRequestURI(), check);
      return;
    }
    AsyncContext refusal = request.startAsync(request, response);
    refusal.setTimeout(delayMillis + TimeUnit.SECONDS.toMillis(30));
    String path = request.getRequestURI();
    timer.schedule(
        () -> {
          try {
            refuse(response, path, check);
          } catch (IOException | RuntimeException gone) {
            // the caller left: nothing to answer
          } finally {
            refusal.complete();
          }
        },
        delayMillis,
        TimeUnit.MILLISECONDS);
  }

  private static void refuse(HttpServletResponse response, String path, TriggerQuotas.Check check)
      throws IOException {
    String detail =
        "This tenant's quota of "
            + check.quota().requests()
            + " trigger calls per "
            + check.quota().windowSeconds()
            + " s is spent; nothing was stored. Send the call again after Retry-After.";
    byte[] body =
        ("{\"type\":\"about:blank\",\"title\":\"Too Many Requests\",\"status\":429,\"detail\":\""
                + json(detail)
                + "\",\"instance\":\""
                + json(path)
                + "\"}")
            .getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpStatus.TOO_MANY_REQUESTS.value());
    response.setHeader("Retry-After", Long.toString(check.decision().retryAfterSeconds()));
    response.setHeader("RateLimit-Policy", check.policyField());
    response.setHeader("RateLimit", check.limitField());
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /**
   * The path as the controller's mapping sees it: percent-decoded, so {@code %35a…} counts against
   * the quota of the tenant it spells.
   */
  private static String decodedPath(HttpServletRequest request) {
    return PATHS.getPathWithinApplication(request);
  }

  /**
   * The tenant id of {@code /api/webhooks/automation/<tenant>/...}; null when it is none (the
   * controller answers 404 for any id that is not a UUID in its canonical form, see {@link
   * TriggerController#parseTenant}).
   */
  static UUID tenantOf(String path) {
    int end = path.indexOf('/', PATH.length());
    String id = path.substring(PATH.length(), end < 0 ? path.length() : end);
    try {
      UUID tenant = UUID.fromString(id);
      return tenant.toString().equalsIgnoreCase(id) ? tenant : null;
    } catch (IllegalArgumentException notATenant) {
      return null;
    }
  }

  private static String json(String text) {
    StringBuilder escaped = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        escaped.append('\\').append(c);
      } else if (c < 0x20) {
        escaped.append(String.format("\\u%04x", (int) c));
      } else {
        escaped.append(c);
      }
    }
    return escaped.toString();
  }
}
