package com.crmflow.api.run;

import java.util.UUID;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Starts accepted runs whose workflow did not start (Temporal was down or the process died between
 * the commit and the start). Runs every few seconds; starting is idempotent.
 */
@Component
class RunReconciler {

  static final int GRACE_SECONDS = 5;

  private final RunRepository runs;
  private final RunStarter starter;

  RunReconciler(RunRepository runs, RunStarter starter) {
    this.runs = runs;
    this.starter = starter;
  }

  @Scheduled(fixedDelayString = "${crm.runs.reconcile-interval:5s}")
  void startStragglers() {
    for (UUID id : runs.unstarted(GRACE_SECONDS, 100)) {
      var run = runs.findAnyTenant(id);
      if (run.isPresent() && !starter.start(run.get())) {
        break; // Temporal is still unreachable: try again on the next round
      }
    }
  }
}
