package com.crmflow.api.trigger;

import static org.awaitility.Awaitility.await;

import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.support.Patience;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Due runs a test makes the admission count, as the trigger's calls let in would be. */
final class DueRuns {

  private DueRuns() {}

  /**
   * Lets runs of the tenant in until the admission refuses it for its share of the due runs; the
   * runs let in are added to {@code taken} (for the test to end them).
   */
  static void takeShare(RunAdmission admission, UUID tenant, List<UUID> taken) {
    await()
        .atMost(Patience.EVENTUALLY)
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(5))
        .until(
            () -> {
              UUID run = UUID.randomUUID();
              RunAdmission.Decision decision = admission.decide(tenant, run);
              if (decision.admitted()) {
                taken.add(run);
              }
              return "due".equals(decision.reason());
            });
  }
}
