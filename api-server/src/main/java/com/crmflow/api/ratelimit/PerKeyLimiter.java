package com.crmflow.api.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Token buckets (Bucket4j), one per key and budget: {@code quota} requests refilled evenly over the
 * window, burst up to the same number. A key whose budget changes starts a new, full bucket. The
 * buckets live where its {@link Store} keeps them: in this process's memory, or shared by every
 * api-server ({@link TokenBuckets}). A shared bucket that cannot be reached (its database is down)
 * is stood in for by one in memory, so a call is still limited, by this process alone. This
 * process's handles on its buckets are dropped after 10 minutes without a call.
 */
public final class PerKeyLimiter {

  private static final Logger log = LoggerFactory.getLogger(PerKeyLimiter.class);
  private static final Duration WARN_EVERY = Duration.ofMinutes(1);

  /** Makes the bucket of one key and budget. */
  public interface Store {

    /**
     * The bucket of the key under the policy (its name in the RateLimit fields): {@code quota}
     * tokens refilled evenly over the window; called once per key and budget while this process
     * keeps its handle.
     */
    Bucket bucket(String policy, Object key, long quota, Duration window);
  }

  /** The configuration of a bucket of {@code quota} tokens refilled evenly over the window. */
  public static BucketConfiguration configuration(long quota, Duration window) {
    return BucketConfiguration.builder()
        .addLimit(limit -> limit.capacity(quota).refillGreedy(quota, window))
        .build();
  }

  /** Buckets in this process's memory. */
  public static final Store IN_MEMORY =
      (policy, key, quota, window) ->
          Bucket.builder()
              .addLimit(limit -> limit.capacity(quota).refillGreedy(quota, window))
              .build();

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

  private final String policy;
  private final Store store;
  private final Cache<BucketKey, Bucket> buckets = handles();

  /** Stand-ins for shared buckets while their store cannot be reached. */
  private final Cache<BucketKey, Bucket> standIns = handles();

  private final AtomicReference<Instant> lastWarning = new AtomicReference<>(Instant.MIN);

  /** Buckets in this process's memory. */
  public PerKeyLimiter() {
    this("budget", IN_MEMORY);
  }

  public PerKeyLimiter(String policy, Store store) {
    this.policy = policy;
    this.store = store;
  }

  private static Cache<BucketKey, Bucket> handles() {
    return Caffeine.newBuilder()
        .expireAfterAccess(Duration.ofMinutes(10))
        .maximumSize(100_000)
        .build();
  }

  public Decision tryConsume(Object key, int perMinute) {
    return tryConsume(key, perMinute, Duration.ofMinutes(1));
  }

  public Decision tryConsume(Object key, long quota, Duration window) {
    BucketKey bucketKey = new BucketKey(key, quota, window);
    ConsumptionProbe probe;
    try {
      probe = take(bucketKey, quota, window);
    } catch (RuntimeException unreachable) {
      if (store == IN_MEMORY) {
        throw unreachable;
      }
      warn(unreachable);
      probe =
          standIns
              .get(bucketKey, k -> IN_MEMORY.bucket(policy, key, quota, window))
              .tryConsumeAndReturnRemaining(1);
    }
    return new Decision(
        probe.isConsumed(),
        probe.getRemainingTokens(),
        ceilSeconds(probe.getNanosToWaitForReset()),
        Math.max(1, ceilSeconds(probe.getNanosToWaitForRefill())));
  }

  /** A token from the key's bucket; a shared bucket's call that fails is made once more. */
  private ConsumptionProbe take(BucketKey bucketKey, long quota, Duration window) {
    Bucket bucket =
        buckets.get(bucketKey, k -> store.bucket(policy, bucketKey.key(), quota, window));
    try {
      return bucket.tryConsumeAndReturnRemaining(1);
    } catch (RuntimeException failed) {
      if (store == IN_MEMORY) {
        throw failed;
      }
      // a transaction that lost a race (the row made or removed meanwhile): once more
      return bucket.tryConsumeAndReturnRemaining(1);
    }
  }

  private void warn(RuntimeException unreachable) {
    Instant now = Instant.now();
    Instant last = lastWarning.get();
    if (now.isAfter(last.plus(WARN_EVERY)) && lastWarning.compareAndSet(last, now)) {
      log.warn(
          "The shared {} buckets cannot be reached; this process limits calls on its own meanwhile:"
              + " {}",
          policy,
          unreachable.toString());
    }
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
