package com.crmflow.api.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Token buckets (Bucket4j), one per key and budget: {@code perMinute} requests refilled evenly over
 * the minute, burst up to the same number. Buckets idle for 10 minutes are dropped.
 */
public final class PerKeyLimiter {

  /** The outcome of one attempt, with what the RateLimit-* and Retry-After headers say. */
  public record Decision(
      boolean allowed, long remaining, long resetSeconds, long retryAfterSeconds) {}

  private record BucketKey(Object key, int perMinute) {}

  private final Cache<BucketKey, Bucket> buckets =
      Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();

  public Decision tryConsume(Object key, int perMinute) {
    Bucket bucket =
        buckets.get(
            new BucketKey(key, perMinute),
            k ->
                Bucket.builder()
                    .addLimit(
                        limit ->
                            limit
                                .capacity(perMinute)
                                .refillGreedy(perMinute, Duration.ofMinutes(1)))
                    .build());
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    return new Decision(
        probe.isConsumed(),
        probe.getRemainingTokens(),
        ceilSeconds(probe.getNanosToWaitForReset()),
        Math.max(1, ceilSeconds(probe.getNanosToWaitForRefill())));
  }

  private static long ceilSeconds(long nanos) {
    return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
  }
}
