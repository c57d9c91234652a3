package com.crmflow.api.run;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
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

  private static final int BATCH = 100;

  private final RunRepository runs;
  private final RunStarter starter;
  private final int graceSeconds;

  /** Accepted runs past the grace period that the last pass found not started (at most a batch). */
  private final AtomicInteger awaitingStart = new AtomicInteger();

  RunReconciler(
      RunRepository runs,
      RunStarter starter,
      @Value("${crm.runs.reconcile-grace-seconds:5}") int graceSeconds,
      MeterRegistry meters) {
    this.runs = runs;
    this.starter = starter;
    this.graceSeconds = graceSeconds;
    Gauge.builder("crm.runs.awaiting.start", awaitingStart, AtomicInteger::get)
        .description(
            "Accepted runs not heard from after the grace period, as the reconciler's last pass"
                + " found them (at most "
                + BATCH
                + "); above 0 for long: Temporal is unreachable")
        .register(meters);
  }

  @Scheduled(fixedDelayString = "${crm.runs.reconcile-interval:5s}")
  void startStragglers() {
    List<UUID> unstarted = runs.unstarted(graceSeconds, BATCH);
    awaitingStart.set(unstarted.size());
    for (UUID id : unstarted) {
      var run = runs.findAnyTenant(id);
      if (run.isPresent() && !starter.start(run.get())) {
        break; // Temporal is still unreachable: try again on the next round
      }
    }
  }
}
