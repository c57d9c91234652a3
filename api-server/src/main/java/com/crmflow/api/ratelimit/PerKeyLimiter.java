package com.crmflow.api.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Token buckets (Bucket4j), one per key and budget: {@code quota} requests refilled evenly over the
 * window, burst up to the same number. Buckets idle for 10 minutes are dropped; a key whose budget
 * changes starts a new, full bucket.
 */
public final class PerKeyLimiter {

  /**
   * The outcome of one attempt, with what the rate-limit header fields say.
   *
   * @param remaining requests left in the bucket now
   * @param resetSeconds seconds until the bucket is full again
   * @param retryAfterSeconds seconds until one request fits (at least 1)
   */
  public record Decision(
      boolean allowed, long remaining, long resetSeconds, long retryAfterSeconds) {}

  private record BucketKey(Object key, long quota, Duration window) {}

  private final Cache<BucketKey, Bucket> buckets =
      Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();

  public Decision tryConsume(Object key, int perMinute) {
    return tryConsume(key, perMinute, Duration.ofMinutes(1));
  }

  public Decision tryConsume(Object key, long quota, Duration window) {
    Bucket bucket =
        buckets.get(
            new BucketKey(key, quota, window),
            k ->
                Bucket.builder()
                    .addLimit(limit -> limit.capacity(quota).refillGreedy(quota, window))
                    .build());
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    return new Decision(
        probe.isConsumed(),
        probe.getRemainingTokens(),
        ceilSeconds(probe.getNanosToWaitForReset()),
        Math.max(1, ceilSeconds(probe.getNanosToWaitForRefill())));
  }

  /**
   * The IETF {@code RateLimit-Policy} field of one policy
   * (draft-ietf-httpapi-ratelimit-headers-11): {@code "name";q=<quota>;w=<window seconds>}.
   */
  public static String policyField(String name, long quota, long windowSeconds) {
    return "\"" + name + "\";q=" + quota + ";w=" + windowSeconds;
  }

  /**
   * The IETF {@code RateLimit} field of one policy (same draft): {@code
   * "name";r=<remaining>;t=<seconds until the bucket is full again>}.
   */
  public static String limitField(String name, Decision decision) {
    return "\""
        + name
        + "\";r="
        + (decision.allowed() ? decision.remaining() : 0)
        + ";t="
        + decision.resetSeconds();
  }

  private static long ceilSeconds(long nanos) {
    return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
  }
}
