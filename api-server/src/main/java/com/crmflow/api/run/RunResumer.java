package com.crmflow.api.run;

import com.crmflow.api.embedded.EmbeddedTemporal;
import jakarta.annotation.PreDestroy;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Goes on with the runs an embedded Temporal server forgot. The embedded server keeps workflows in
 * memory, so when the service restarts, every run that was running has lost its workflow (run
 * records and node logs are in PostgreSQL and survive). Once the service is up, each such run gets
 * a new workflow that goes on where its node log says it stood: finished nodes are not run again, a
 * delay waits only for what was left of it (see {@link RunStarter#start}). That includes runs whose
 * workflow never recorded anything, which the {@link RunReconciler} may start too: both start them
 * the same way, and the second start finds the first. With a real Temporal server (distributed)
 * nothing is lost and this does nothing.
 *
 * <p>It works in a thread of its own, page after page, so that many waiting runs (a large
 * sequence's enrollments) neither hold up the start nor the scheduler's other jobs, and each run
 * goes through the {@link TriggerAdmission} like a trigger call: thousands of resumed runs then
 * come in at the pace the worker finishes their first steps, and triggers keep their place.
 */
@Component
class RunResumer {

  private static final Logger log = LoggerFactory.getLogger(RunResumer.class);
  private static final int PAGE = 500;
  private static final long RETRY_AFTER_SECONDS = 5;

  private final RunRepository runs;
  private final RunStarter starter;
  private final TriggerAdmission admission;

  /** Runs created before this moment were started by an earlier process. */
  private final OffsetDateTime processStart = OffsetDateTime.now();

  private volatile boolean stopping;

  RunResumer(RunRepository runs, RunStarter starter, TriggerAdmission admission) {
    this.runs = runs;
    this.starter = starter;
    this.admission = admission;
  }

  @EventListener(ApplicationReadyEvent.class)
  void serviceUp(ApplicationReadyEvent ready) {
    if (ready.getApplicationContext().containsBean(EmbeddedTemporal.BEAN_NAME)) {
      Thread resumer = new Thread(this::resumeLostRuns, "run-resumer");
      resumer.setDaemon(true);
      resumer.start();
    }
  }

  @PreDestroy
  void stop() {
    stopping = true;
  }

  /** Resumes every lost run, in id order; returns how many. */
  int resumeLostRuns() {
    UUID after = new UUID(0, 0); // the lowest uuid in PostgreSQL's order
    int resumed = 0;
    try {
      List<AutomationRun> lost;
      do {
        lost = runs.runningAcceptedBefore(processStart, after, PAGE);
        for (AutomationRun run : lost) {
          admission.admit(run.id()); // in line with the triggers: the worker is not flooded
          while (!stopping && !starter.start(run)) {
            TimeUnit.SECONDS.sleep(RETRY_AFTER_SECONDS); // Temporal refused: again, in a while
          }
          if (stopping) {
            return resumed;
          }
          resumed++;
          after = run.id();
        }
      } while (lost.size() == PAGE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.error("Resuming lost runs stopped after {}: {}", resumed, e.toString());
    }
    if (resumed > 0) {
      log.info("Resumed {} runs whose workflows the embedded Temporal server lost", resumed);
    }
    return resumed;
  }
}
