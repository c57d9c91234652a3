package com.crmflow.api.trigger;

import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.web.ProblemDetailsAdvice;
import com.crmflow.api.web.RequestPaths;
import com.crmflow.shared.tracing.CurrentTrace;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

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
 *
 * <p>A call within the quota of a tenant past its share of the {@link RunAdmission admission} is
 * refused here the same way, with the admission's 503 (after at most the same delay): a tenant
 * whose quota is larger than the machine can serve floods refusals, and answering them at once
 * takes the cores from the other tenants' runs (docs/benchmarks.md, "Fairness between tenants").
 */
class TriggerQuotaFilter extends OncePerRequestFilter {

  static final String PATH = "/api/webhooks/automation/";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final TriggerQuotas quotas;
  private final RunAdmission admission;
  private final Duration refusalDelay;
  private final ScheduledExecutorService timer;

  TriggerQuotaFilter(TriggerQuotas quotas, RunAdmission admission, Duration refusalDelay) {
    this.quotas = quotas;
    this.admission = admission;
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
    return !RequestPaths.of(request).startsWith(PATH);
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    UUID tenant = tenantOf(RequestPaths.of(request));
    if (tenant == null) {
      chain.doFilter(request, response); // not a tenant id: the controller answers 404
      return;
    }
    String path = request.getRequestURI();
    if (quotas.enabled()) {
      TriggerQuotas.Check check = quotas.take(tenant);
      response.setHeader("RateLimit-Policy", check.policyField());
      response.setHeader("RateLimit", check.limitField());
      if (!check.decision().allowed()) {
        long retryAfter = check.decision().retryAfterSeconds();
        refuseAfterDelay(request, response, retryAfter, () -> overQuota(response, path, check));
        return;
      }
    }
    RunAdmission.Decision busy = admission.refusalNow(tenant);
    if (busy != null) {
      long retryAfter = busy.retryAfterSeconds();
      refuseAfterDelay(
          request,
          response,
          retryAfter,
          () -> overShare(response, path, retryAfter, busy.reason()));
      return;
    }
    chain.doFilter(request, response);
  }

  /** Writes a refusal's answer. */
  private interface Refusal {
    void write() throws IOException;
  }

  /**
   * Sends the refusal after the time until a call fits (at most the refusal delay), from the timer,
   * holding no request thread; at once where the delay is 0 or the request cannot go async.
   */
  private void refuseAfterDelay(
      HttpServletRequest request, HttpServletResponse response, long retryAfter, Refusal refusal)
      throws IOException {
    long delayMillis = Math.min(refusalDelay.toMillis(), TimeUnit.SECONDS.toMillis(retryAfter));
    if (delayMillis <= 0 || !request.isAsyncSupported()) {
      refusal.write();
      return;
    }
    AsyncContext async = request.startAsync(request, response);
    async.setTimeout(delayMillis + TimeUnit.SECONDS.toMillis(30));
    timer.schedule(
        () -> {
          try {
            refusal.write();
          } catch (IOException | RuntimeException gone) {
            // the caller left: nothing to answer
          } finally {
            async.complete();
          }
        },
        delayMillis,
        TimeUnit.MILLISECONDS);
  }

  private void overQuota(HttpServletResponse response, String path, TriggerQuotas.Check check)
      throws IOException {
    problem(
        response,
        path,
        HttpStatus.TOO_MANY_REQUESTS,
        "This tenant's quota of "
            + check.quota().requests()
            + " trigger calls per "
            + check.quota().windowSeconds()
            + " s is spent; nothing was stored. Send the call again after Retry-After.",
        check.decision().retryAfterSeconds());
  }

  /** The admission's 503, as {@link TriggerService} answers it for a call it refuses. */
  private void overShare(HttpServletResponse response, String path, long retryAfter, String reason)
      throws IOException {
    problem(
        response,
        path,
        HttpStatus.SERVICE_UNAVAILABLE,
        TriggerRefusals.overloadedDetail(reason),
        retryAfter);
  }

  private static void problem(
      HttpServletResponse response, String path, HttpStatus status, String detail, long retryAfter)
      throws IOException {
    Map<String, Object> problem = new LinkedHashMap<>();
    problem.put("type", "about:blank");
    problem.put("title", status.getReasonPhrase());
    problem.put("status", status.value());
    problem.put("detail", detail);
    problem.put("instance", path);
    CurrentTrace.traceId().ifPresent(id -> problem.put(ProblemDetailsAdvice.TRACE_ID, id));
    byte[] body = JSON.writeValueAsBytes(problem);
    response.setStatus(status.value());
    response.setHeader("Retry-After", Long.toString(retryAfter));
    response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /**
   * The tenant id of {@code /api/webhooks/automation/<tenant>/...}; null when it is none (the
   * controller answers 404 for any id that is not a UUID in its canonical form, see {@link
   * TriggerController#parseTenant}).
   */
  static UUID tenantOf(String path) {
    int end = path.indexOf('/', PATH.length());
    return TriggerController.canonicalUuid(
        path.substring(PATH.length(), end < 0 ? path.length() : end));
  }
}
