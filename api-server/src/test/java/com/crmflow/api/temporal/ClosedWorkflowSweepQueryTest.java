package com.crmflow.api.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The close check's visibility query. Temporal's SQL visibility stores order an execution without a
 * close time (a running one) as closing at the end of time, so the query's close-time range must
 * end somewhere: open above, it covers every running execution's row (what that costs is in
 * docs/benchmarks.md, "Waiting runs"). {@link ClosedWorkflowSweepCostTest} finds a terminated
 * execution through it on the real dev server.
 */
class ClosedWorkflowSweepQueryTest {

  @Test
  void theCloseTimeRangeEndsADayPastTheLookSoNoRunningExecutionFallsInIt() {
    Instant since = Instant.parse("2026-11-30T10:15:30.250Z");
    Instant lookStarted = Instant.parse("2026-11-30T10:20:45.900Z");

    String query = ClosedWorkflowSweep.closedFromOutside(since, lookStarted);

    assertThat(query)
        .isEqualTo(
            "(ExecutionStatus = 'Failed' OR ExecutionStatus = 'Terminated'"
                + " OR ExecutionStatus = 'TimedOut' OR ExecutionStatus = 'Canceled')"
                + " AND CloseTime >= '2026-11-30T10:15:30Z'"
                + " AND CloseTime <= '2026-12-01T10:20:45Z'");
  }
}
