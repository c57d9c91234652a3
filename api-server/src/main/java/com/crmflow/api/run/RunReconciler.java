package com.crmflow.api.run;

import java.util.UUID;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Starts accepted runs whose workflow did not start (Temporal was down or the process died between
 * the commit and the start). Runs every few seconds; starting is idempotent. A run counts as
 * started once its workflow recorded something; a run still silent after the grace period (a long
 * first http_request, say) is probed by one start, which finds the workflow and marks the run.
 */
@Component
class RunReconciler {

  private final RunRepository runs;
  private final RunStarter starter;
  private final int graceSeconds;

  RunReconciler(
      RunRepository runs,
      RunStarter starter,
      @Value("${crm.runs.reconcile-grace-seconds:5}") int graceSeconds) {
    this.runs = runs;
    this.starter = starter;
    this.graceSeconds = graceSeconds;
  }

  @Scheduled(fixedDelayString = "${crm.runs.reconcile-interval:5s}")
  void startStragglers() {
    for (UUID id : runs.unstarted(graceSeconds, 100)) {
      var run = runs.findAnyTenant(id);
      if (run.isPresent() && !starter.start(run.get())) {
        break; // Temporal is still unreachable: try again on the next round
      }
    }
  }
}
