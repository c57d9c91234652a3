package com.crmflow.api.run;

import com.crmflow.api.settings.CrmProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Starts accepted runs whose workflow did not start (Temporal was down or the process died between
 * the commit and the start). Runs every few seconds; starting is idempotent. A run counts as
 * started once its workflow recorded something; a run still silent after the grace period (a long
 * first http_request, say) is probed by one start, which finds the workflow and marks the run.
 */
@Component
class RunReconciler implements SchedulingConfigurer {

  private static final int BATCH = 100;

  private final RunRepository runs;
  private final RunStarter starter;
  private final int graceSeconds;

  /** Accepted runs past the grace period that the last pass found not started (at most a batch). */
  private final AtomicInteger awaitingStart = new AtomicInteger();

  private final Duration interval;

  RunReconciler(
      RunRepository runs, RunStarter starter, CrmProperties properties, MeterRegistry meters) {
    this.interval = properties.runs().reconcileInterval();
    int graceSeconds = properties.runs().reconcileGraceSeconds();
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

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(this::startStragglers, interval);
  }

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
