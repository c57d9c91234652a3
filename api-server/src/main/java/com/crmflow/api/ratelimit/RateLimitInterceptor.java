package com.crmflow.api.ratelimit;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Per-API-key token bucket (Bucket4j): {@code requestsPerMinute} requests, refilled evenly, burst
 * up to the same number. Every answer carries {@code RateLimit-Limit}, {@code RateLimit-Remaining}
 * and {@code RateLimit-Reset}; a refused request gets 429 with {@code Retry-After}. Buckets live in
 * this process: with several API servers each enforces its own.
 */
public class RateLimitInterceptor implements HandlerInterceptor {

  private record BucketKey(UUID apiKeyId, int perMinute) {}

  private final CrmProperties.RateLimit settings;
  private final Cache<BucketKey, Bucket> buckets =
      Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();

  public RateLimitInterceptor(CrmProperties.RateLimit settings) {
    this.settings = settings;
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
    Bucket bucket =
        buckets.get(
            new BucketKey(caller.apiKeyId(), perMinute),
            key ->
                Bucket.builder()
                    .addLimit(
                        limit ->
                            limit
                                .capacity(perMinute)
                                .refillGreedy(perMinute, Duration.ofMinutes(1)))
                    .build());
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    response.setHeader("RateLimit-Limit", Integer.toString(perMinute));
    response.setHeader("RateLimit-Remaining", Long.toString(probe.getRemainingTokens()));
    response.setHeader(
        "RateLimit-Reset", Long.toString(ceilSeconds(probe.getNanosToWaitForReset())));
    if (probe.isConsumed()) {
      return true;
    }
    long retryAfter = Math.max(1, ceilSeconds(probe.getNanosToWaitForRefill()));
    throw new ApiException(
        HttpStatus.TOO_MANY_REQUESTS,
        "Rate limit of " + perMinute + " requests per minute exceeded for this API key.",
        List.of(),
        Map.of(
            "Retry-After", Long.toString(retryAfter),
            "RateLimit-Limit", Integer.toString(perMinute),
            "RateLimit-Remaining", "0",
            "RateLimit-Reset", Long.toString(retryAfter)));
  }

  private static long ceilSeconds(long nanos) {
    return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
  }
}
