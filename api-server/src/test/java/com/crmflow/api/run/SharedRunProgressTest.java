package com.crmflow.api.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Two api-servers' admissions over one database: a run let in by one and recorded by the other (its
 * recording went to the other through the crm queue) leaves the count of the one that let it in.
 */
class SharedRunProgressTest extends ApiTest {

  @Autowired private DataSource dataSource;

  private static RunAdmission admission() {
    return new RunAdmission(
        4, Duration.ofMillis(100), false, Clock.systemUTC(), new SimpleMeterRegistry());
  }

  @Test
  void aRunLetInByOneApiServerAndRecordedByTheOtherLeavesTheFirstOnesCount() {
    RunAdmission admittedHere = admission();
    RunAdmission recordedThere = admission();
    SharedRunProgress here = new SharedRunProgress(admittedHere, jdbc, dataSource);
    SharedRunProgress there = new SharedRunProgress(recordedThere, jdbc, dataSource);
    here.start();
    there.start();
    try {
      await().atMost(Patience.EVENTUALLY).until(() -> here.listening() && there.listening());
      UUID tenant = UUID.randomUUID();
      UUID waits = UUID.randomUUID();
      UUID ends = UUID.randomUUID();
      for (UUID run : new UUID[] {waits, ends}) {
        assertThat(admittedHere.decide(tenant, run).admitted()).isTrue();
      }
      assertThat(admittedHere.dueNow(tenant)).isEqualTo(2);

      // the other api-server records one run waiting an hour and the other's end
      there.waitsUntil(waits, Instant.now().plus(Duration.ofHours(1)));
      there.ended(ends);

      await().atMost(Patience.EVENTUALLY).until(() -> admittedHere.dueNow(tenant) == 0);
      assertThat(recordedThere.dueNow()).as("it let none of them in").isZero();
      // the full count is free again for the tenant
      for (int i = 0; i < 4; i++) {
        assertThat(admittedHere.decide(tenant, UUID.randomUUID()).admitted()).isTrue();
      }
      assertThat(admittedHere.decide(tenant, UUID.randomUUID()).admitted())
          .as("while four of its runs are due")
          .isFalse();
    } finally {
      here.stop();
      there.stop();
    }
  }

  @Test
  void aBatchFromThisProcessItselfIsNotAppliedTwiceAndGarbleIsIgnored() {
    RunAdmission admission = admission();
    SharedRunProgress progress = new SharedRunProgress(admission, jdbc, dataSource);
    UUID tenant = UUID.randomUUID();
    UUID run = UUID.randomUUID();
    assertThat(admission.decide(tenant, run).admitted()).isTrue();

    progress.apply("someone\nnonsense\ne not-a-uuid\nw " + run + " soon");
    assertThat(admission.dueNow(tenant)).as("nothing it could read").isEqualTo(1);
    progress.apply("someone\ne " + run);
    assertThat(admission.dueNow(tenant)).isZero();
  }
}
