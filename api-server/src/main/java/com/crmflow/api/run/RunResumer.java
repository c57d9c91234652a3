package com.crmflow.api.run;

import com.crmflow.api.embedded.EmbeddedTemporal;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Goes on with the runs an embedded Temporal server forgot. The embedded server keeps workflows in
 * memory, so when the service restarts, every run that was running has lost its workflow (run
 * records and node logs are in PostgreSQL and survive). Once the service is up, each such run gets
 * a new workflow that goes on where its node log says it stood: finished nodes are not run again, a
 * delay waits only for what was left of it (see {@link RunStarter#resume}). Runs whose workflow
 * never started are the {@link RunReconciler}'s. With a real Temporal server (distributed) nothing
 * is lost and this does nothing.
 */
@Component
class RunResumer {

  private static final Logger log = LoggerFactory.getLogger(RunResumer.class);
  private static final int PAGE = 200;

  private final RunRepository runs;
  private final RunStarter starter;
  private final ApplicationContext context;

  /** Runs created before this moment were started by an earlier process. */
  private final OffsetDateTime processStart = OffsetDateTime.now();

  private final AtomicBoolean pending = new AtomicBoolean();
  private UUID resumedUpTo = new UUID(0, 0); // the lowest uuid in PostgreSQL's order
  private int resumed;

  RunResumer(RunRepository runs, RunStarter starter, ApplicationContext context) {
    this.runs = runs;
    this.starter = starter;
    this.context = context;
  }

  @EventListener(ApplicationReadyEvent.class)
  void serviceUp() {
    pending.set(context.containsBean(EmbeddedTemporal.BEAN_NAME));
  }

  /** A page of lost runs per round, until none is left (then never again in this process). */
  @Scheduled(fixedDelayString = "${crm.runs.reconcile-interval:5s}")
  void resumeLostRuns() {
    if (!pending.get()) {
      return;
    }
    List<UUID> lost = runs.startedBefore(processStart, resumedUpTo, PAGE);
    for (UUID id : lost) {
      var run = runs.findAnyTenant(id);
      if (run.isPresent() && !starter.resume(run.get())) {
        return; // Temporal refused: this run again next round
      }
      resumedUpTo = id;
      resumed++;
    }
    if (lost.size() < PAGE) {
      pending.set(false);
      if (resumed > 0) {
        log.info("Resumed {} runs whose workflows the embedded Temporal server lost", resumed);
      }
    }
  }
}
