package com.crmflow.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RefusedPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Token buckets shared through the service's PostgreSQL: two instances over one database, as two
 * api-servers are, draw on one bucket per key and budget.
 */
class SharedTokenBucketsTest extends ApiTest {

  @Autowired private DataSource dataSource;

  private static CrmProperties.Buckets shared(int localPercent, Duration keepIdle) {
    return new CrmProperties.Buckets(true, localPercent, Duration.ofSeconds(1), keepIdle);
  }

  /** The policy's limiter of one process (an api-server) over the test's database. */
  private PerKeyLimiter process(int localPercent, String policy) {
    return new TokenBuckets(shared(localPercent, Duration.ofMinutes(1)), dataSource)
        .limiter(policy);
  }

  @Test
  void twoProcessesOverOneDatabaseDrawOnOneBucket() {
    PerKeyLimiter first = process(0, "api-key");
    PerKeyLimiter second = process(0, "api-key");
    UUID key = UUID.randomUUID();

    for (int i = 0; i < 10; i++) {
      PerKeyLimiter.Decision taken =
          (i % 2 == 0 ? first : second).tryConsume(key, 10, Duration.ofHours(1));
      assertThat(taken.allowed()).as("call %d of 10", i + 1).isTrue();
      assertThat(taken.remaining())
          .as("left after call %d, whichever took it", i + 1)
          .isEqualTo(9 - i);
    }
    for (PerKeyLimiter either : new PerKeyLimiter[] {first, second}) {
      PerKeyLimiter.Decision refused = either.tryConsume(key, 10, Duration.ofHours(1));
      assertThat(refused.allowed()).isFalse();
      // one token comes back every 6 minutes
      assertThat(refused.retryAfterSeconds()).isBetween(300L, 360L);
    }
    assertThat(
            jdbc.sql("select count(*) from token_bucket where id = :id and expires_at > :now")
                .param("id", "api-key:" + key + ":10/3600000ms")
                .param("now", System.currentTimeMillis())
                .query(Long.class)
                .single())
        .as("the bucket's one row, kept until it is full again")
        .isEqualTo(1);
    // another budget of the same key is another bucket, full
    assertThat(second.tryConsume(key, 11, Duration.ofHours(1)).remaining()).isEqualTo(10);
  }

  @Test
  void concurrentCallsOfTwoProcessesOnANewBucketAreHeldToItsQuota() throws Exception {
    PerKeyLimiter first = process(0, "trigger");
    PerKeyLimiter second = process(0, "trigger");
    UUID key = UUID.randomUUID();
    ExecutorService callers = Executors.newFixedThreadPool(16);
    try {
      List<Future<Boolean>> calls = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        PerKeyLimiter process = i % 2 == 0 ? first : second;
        calls.add(callers.submit(() -> process.tryConsume(key, 20, Duration.ofHours(1)).allowed()));
      }
      int allowed = 0;
      for (Future<Boolean> call : calls) {
        allowed += call.get() ? 1 : 0;
      }
      // the bucket's row is made by the first calls of both at once: none of them falls back
      assertThat(allowed).isEqualTo(20);
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void aProcessTakingItsLocalShareLetsInAtMostTheOtherProcessesSharesBeyondTheQuota() {
    PerKeyLimiter first = process(10, "trigger");
    PerKeyLimiter second = process(10, "trigger");
    UUID key = UUID.randomUUID();

    int allowed = 0;
    for (int i = 0; i < 300; i++) {
      if ((i % 2 == 0 ? first : second).tryConsume(key, 100, Duration.ofHours(1)).allowed()) {
        allowed++;
      }
    }
    // 10 % of 100 each may take unsynchronized: the other one's 10 at most beyond the quota
    assertThat(allowed).isBetween(100, 110);
  }

  @Test
  void aDatabaseThatCannotBeReachedLeavesEachProcessLimitingOnItsOwn() {
    try (RefusedPort nothing = new RefusedPort()) {
      PGSimpleDataSource unreachable = new PGSimpleDataSource();
      unreachable.setServerNames(new String[] {"127.0.0.1"});
      unreachable.setPortNumbers(new int[] {nothing.port()});
      unreachable.setConnectTimeout(2);
      PerKeyLimiter limiter =
          new TokenBuckets(shared(0, Duration.ofMinutes(1)), unreachable).limiter("trigger");
      UUID key = UUID.randomUUID();

      assertThat(limiter.tryConsume(key, 2, Duration.ofHours(1)).allowed()).isTrue();
      assertThat(limiter.tryConsume(key, 2, Duration.ofHours(1)).allowed()).isTrue();
      PerKeyLimiter.Decision refused = limiter.tryConsume(key, 2, Duration.ofHours(1));
      assertThat(refused.allowed()).as("still limited, in this process").isFalse();
      assertThat(refused.retryAfterSeconds()).isBetween(1700L, 1800L);
    }
  }

  @Test
  void theRowOfABucketFullAgainIsRemovedOnceItsKeepIsOver() {
    TokenBuckets buckets = new TokenBuckets(shared(0, Duration.ZERO), dataSource);
    UUID key = UUID.randomUUID();
    String id = "trigger:" + key + ":1/1000ms";
    assertThat(buckets.limiter("trigger").tryConsume(key, 1, Duration.ofSeconds(1)).allowed())
        .isTrue();
    assertThat(rows(id)).isEqualTo(1);

    // full again a second later, kept no longer than that
    await().atMost(Patience.EVENTUALLY).until(() -> buckets.removeIdleNow() >= 0 && rows(id) == 0);
  }

  private long rows(String id) {
    return jdbc.sql("select count(*) from token_bucket where id = :id")
        .param("id", id)
        .query(Long.class)
        .single();
  }
}
