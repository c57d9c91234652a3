package com.crmflow.api.ratelimit;

import com.crmflow.api.settings.CrmProperties;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.distributed.proxy.RemoteBucketBuilder;
import io.github.bucket4j.distributed.proxy.optimization.DelayParameters;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import java.time.Duration;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Where the per-key rate limit's and the trigger quota's buckets live ({@code crm.buckets}). On the
 * embedded defaults, in this process's memory: the process is the whole deployment. With {@code
 * crm.buckets.shared} (the {@code distributed} profile), in the service's PostgreSQL through
 * Bucket4j's PostgreSQL integration, so that every api-server draws on the same bucket of a key and
 * a tenant gets its quota once however many api-servers share its calls.
 *
 * <p>A call takes its token in a transaction of its own that locks the bucket's row ({@code select
 * ... for update}), updates it and commits. Concurrent calls on one bucket in this process go in
 * one such transaction (Bucket4j's batching). With {@code crm.buckets.local-percent} above 0 a
 * process takes up to that share of a bucket's quota on its own between two synchronizations (at
 * most {@code crm.buckets.local-for} apart; Bucket4j's delaying optimization): fewer statements,
 * and a deployment of N api-servers may let in up to (N - 1) times that share beyond the quota.
 *
 * <p>A bucket's row is kept until {@code crm.buckets.keep-idle} after the bucket is full again;
 * rows past that are deleted every minute, 1,000 at a time.
 */
@Component
public class TokenBuckets {

  private static final Logger log = LoggerFactory.getLogger(TokenBuckets.class);
  private static final int REMOVE_BATCH = 1_000;

  /** At most this many batches a pass: the next pass takes the rest. */
  private static final int REMOVE_BATCHES_PER_PASS = 20;

  private final CrmProperties.Buckets settings;
  private final PostgreSQLSelectForUpdateBasedProxyManager<String> shared;

  @Autowired
  TokenBuckets(CrmProperties properties, ObjectProvider<DataSource> dataSource) {
    this(properties.buckets(), properties.buckets().shared() ? dataSource.getObject() : null);
  }

  /**
   * Buckets with these settings; in {@code dataSource} when they are shared.
   *
   * @param dataSource the service's database (with the {@code token_bucket} table); ignored unless
   *     {@code settings.shared()}
   */
  public TokenBuckets(CrmProperties.Buckets settings, DataSource dataSource) {
    this.settings = settings;
    this.shared =
        settings.shared()
            ? Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("token_bucket")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                .expirationAfterWrite(
                    ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                        settings.keepIdle()))
                .build()
            : null;
  }

  /** Buckets in this process's memory (where no store is configured: the web layer's tests). */
  public static TokenBuckets inMemory() {
    return new TokenBuckets(
        new CrmProperties.Buckets(false, 0, Duration.ofSeconds(1), Duration.ofMinutes(1)), null);
  }

  /** Whether the buckets are shared by every api-server. */
  public boolean shared() {
    return shared != null;
  }

  /** A limiter of the policy (its name in the RateLimit fields) over these buckets. */
  public PerKeyLimiter limiter(String policy) {
    return new PerKeyLimiter(policy, shared == null ? PerKeyLimiter.IN_MEMORY : this::sharedBucket);
  }

  private Bucket sharedBucket(String policy, Object key, long quota, Duration window) {
    // a budget of its own per row: a changed quota starts a new, full bucket, as in memory
    String id = policy + ":" + key + ":" + quota + "/" + window.toMillis() + "ms";
    RemoteBucketBuilder<String> builder = shared.builder();
    long localTokens = quota * settings.localPercent() / 100;
    if (localTokens > 0) {
      builder =
          builder.withOptimization(
              Optimizations.delaying(new DelayParameters(localTokens, settings.localFor())));
    }
    // no batching: concurrent calls batched into one command on a bucket whose row is not there
    // yet (new, or removed once idle) fail together with BucketNotFoundException instead of
    // making the row (Bucket4j 8.18), and each call alone queues on the row's lock anyway
    return builder.build(id, () -> PerKeyLimiter.configuration(quota, window));
  }

  /** Deletes the rows of buckets idle past keep-idle, in batches. */
  @Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
  void removeIdle() {
    if (shared == null) {
      return;
    }
    try {
      int removed = 0;
      for (int batch = 0; batch < REMOVE_BATCHES_PER_PASS; batch++) {
        int now = shared.removeExpired(REMOVE_BATCH);
        removed += now;
        if (now < REMOVE_BATCH) {
          break;
        }
      }
      log.debug("Removed {} idle token buckets", removed);
    } catch (RuntimeException unreachable) {
      log.warn("Could not remove idle token buckets: {}", unreachable.toString());
    }
  }

  /** Deletes the rows of buckets idle past keep-idle now; how many (for tests). */
  int removeIdleNow() {
    return shared == null ? 0 : shared.removeExpired(REMOVE_BATCH);
  }
}
