package com.crmflow.api.ratelimit;

import com.crmflow.api.access.Caller;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Per-API-key request budget on the authenticated API. Every answer carries the IETF fields {@code
 * RateLimit-Policy: "api-key";q=<per minute>;w=60} and {@code RateLimit: "api-key";r=<left>;t=<s>}
 * (draft-ietf-httpapi-ratelimit-headers-11), and for older clients {@code RateLimit-Limit}, {@code
 * RateLimit-Remaining} and {@code RateLimit-Reset}; a refused request gets 429 with {@code
 * Retry-After}. The buckets are {@link TokenBuckets}': shared by every api-server with {@code
 * crm.buckets.shared}, else this process's own.
 */
public class RateLimitInterceptor implements HandlerInterceptor {

  /** The policy's name in the RateLimit fields. */
  static final String POLICY = "api-key";

  private final CrmProperties.RateLimit settings;
  private final PerKeyLimiter limiter;

  public RateLimitInterceptor(CrmProperties.RateLimit settings, TokenBuckets buckets) {
    this.settings = settings;
    this.limiter = buckets.limiter(POLICY);
  }

  @Override
  public boolean preHandle(
      HttpServletRequest request, HttpServletResponse response, Object handler) {
    Caller caller = Caller.of(request);
    if (!settings.enabled() || caller == null) {
      return true;
    }
    int perMinute =
        caller.rateLimitPerMinute() != null
            ? caller.rateLimitPerMinute()
            : settings.requestsPerMinute();
    PerKeyLimiter.Decision decision = limiter.tryConsume(caller.apiKeyId(), perMinute);
    response.setHeader("RateLimit-Limit", Integer.toString(perMinute));
    response.setHeader("RateLimit-Remaining", Long.toString(decision.remaining()));
    response.setHeader("RateLimit-Reset", Long.toString(decision.resetSeconds()));
    String policy = PerKeyLimiter.policyField(POLICY, perMinute, 60);
    String limit = PerKeyLimiter.limitField(POLICY, decision);
    response.setHeader("RateLimit-Policy", policy);
    response.setHeader("RateLimit", limit);
    if (decision.allowed()) {
      return true;
    }
    String retryAfter = Long.toString(decision.retryAfterSeconds());
    throw new ApiException(
        HttpStatus.TOO_MANY_REQUESTS,
        "Rate limit of " + perMinute + " requests per minute exceeded for this API key.",
        List.of(),
        Map.of(
            "Retry-After",
            retryAfter,
            "RateLimit-Limit",
            Integer.toString(perMinute),
            "RateLimit-Remaining",
            "0",
            "RateLimit-Reset",
            retryAfter,
            "RateLimit-Policy",
            policy,
            "RateLimit",
            limit));
  }
}
