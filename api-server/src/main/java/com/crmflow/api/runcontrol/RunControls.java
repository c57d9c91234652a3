package com.crmflow.api.runcontrol;

import com.crmflow.api.flow.InFlight;
import com.crmflow.api.flow.RunsInProgress;
import com.crmflow.api.joblease.JobPolling;
import com.crmflow.api.run.RunCancels;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunControl;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Service;

/**
 * Asks a flow's runs in progress to hold, go on or end ({@link RunControl}), by a durable job,
 * never in the request's thread: the request stores the job with the flow's change, in its
 * transaction, and answers how many runs it applies to; then, every {@code crm.runs.control.pause},
 * an api-server that holds the job's lease signals its next page of {@code
 * crm.runs.control.page-size} runs (in id order) and records the page with the job. A job whose
 * api-server died is taken on by any api-server once its lease (a minute) runs out, from its last
 * page; a run asked twice takes the ask once (its generation). Each run acts on the ask at its next
 * safe point: a node that acts finishes first.
 */
@Service
public class RunControls implements RunsInProgress, SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(RunControls.class);
  private static final Duration LEASE = Duration.ofMinutes(1);

  private final RunControlRepository jobs;
  private final WorkflowClient temporal;
  private final RunCancels cancels;
  private final CrmProperties.Runs.Control settings;

  /** This process, as the holder of the jobs it leases. */
  private final String holder = "api-" + UUID.randomUUID();

  private final JobPolling polling = new JobPolling();

  RunControls(
      RunControlRepository jobs,
      WorkflowClient temporal,
      RunCancels cancels,
      CrmProperties properties) {
    this.jobs = jobs;
    this.temporal = temporal;
    this.cancels = cancels;
    this.settings = properties.runs().control();
  }

  /**
   * Asks the flow's runs in progress to {@code action} (hold, release or end; continue asks
   * nothing, and releases runs that its last ask held), in the caller's transaction.
   *
   * @param reason what a run held or ended says why ({@code flow paused})
   * @return the action taken and the runs in progress it applies to
   */
  @Override
  public InFlight ask(UUID tenantId, UUID sequenceId, String action, String reason) {
    long runs = jobs.runsInProgress(tenantId, sequenceId);
    String asked = action;
    if (InFlight.CONTINUE.equals(action)) {
      if (!held(tenantId, sequenceId)) {
        return new InFlight(InFlight.CONTINUE, runs);
      }
      asked = InFlight.RELEASE;
    }
    if (runs > 0 || InFlight.RELEASE.equals(asked)) {
      jobs.insert(tenantId, sequenceId, asked, reason, runs);
      polling.wake();
    }
    return new InFlight(asked, runs);
  }

  /** Whether the flow's last ask held its runs (and nothing has released them since). */
  public boolean held(UUID tenantId, UUID sequenceId) {
    return jobs.lastAction(tenantId, sequenceId).filter(InFlight.HOLD::equals).isPresent();
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(
        new FixedDelayTask(this::nextPage, settings.pause(), Duration.ofSeconds(1)));
  }

  /** Asks the next page of runs of the oldest job this process may take; whether there was one. */
  boolean nextPage() {
    Optional<RunControlJob> leased =
        polling.lookFor("asks of runs in progress", () -> jobs.lease(holder, LEASE));
    if (leased.isEmpty()) {
      return false;
    }
    RunControlJob job = leased.get();
    try {
      List<RunControlRepository.RunToAsk> page = jobs.page(job, settings.pageSize());
      if (page.isEmpty()) {
        jobs.complete(job.id());
        return true;
      }
      RunControl control = new RunControl(job.action(), job.reason(), job.generation());
      for (RunControlRepository.RunToAsk run : page) {
        ask(run, control);
      }
      jobs.pageDone(job.id(), holder, page.get(page.size() - 1).id(), page.size());
      return true;
    } catch (RuntimeException failed) {
      // the lease runs out and the page is asked again, by this process or another
      log.warn("A page of run control job {} failed: {}", job.id(), failed.toString());
      return false;
    }
  }

  /**
   * Signals the run's workflow. A run whose workflow has not started (or has just closed) cannot
   * hear it: asked to end, it is ended here, cancelled with the reason, and never starts.
   */
  private void ask(RunControlRepository.RunToAsk run, RunControl control) {
    try {
      temporal
          .newUntypedWorkflowStub(run.workflowId())
          .signal(AutomationRunWorkflow.CONTROL, control);
    } catch (WorkflowNotFoundException notRunning) {
      if (RunControl.END.equals(control.action())) {
        cancels.cancelledBeforeStart(run.id(), run.workflowId(), control.reason());
      }
    }
  }
}
