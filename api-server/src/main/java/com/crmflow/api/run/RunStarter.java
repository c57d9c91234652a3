package com.crmflow.api.run;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResume;
import io.opentelemetry.context.Context;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import jakarta.annotation.PreDestroy;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Component;

/**
 * When a stored run's workflow starts: at once, or soon through the start pool. A new run comes
 * here from {@link RunBeginnings} only; safe to call again for the same run (the workflow id is
 * derived from the run id), which is what the reconciler does for runs whose start failed. A run
 * cancelled before its start never starts ({@link RunCancels#startUnlessCancelled}); the start
 * itself (input, options, what the Temporal UI shows) is {@link RunWorkflowStart}'s.
 */
@Component
public class RunStarter {

  private static final Logger log = LoggerFactory.getLogger(RunStarter.class);

  private final RunRepository runs;
  private final RunCancels cancels;
  private final RunWorkflowStart workflowStart;

  private final ThreadPoolExecutor starts =
      new ThreadPoolExecutor(
          8,
          8,
          1,
          TimeUnit.MINUTES,
          // short on purpose: a long queue let triggers be accepted faster than runs could
          // start, and every queued start waited its turn (end-to-end p99 17 s at 1,000 queued
          // under the benchmark, 3.6 s at 32); past it, triggers slow down instead
          new ArrayBlockingQueue<>(32),
          new CustomizableThreadFactory("run-starter-"),
          new ThreadPoolExecutor.CallerRunsPolicy());

  RunStarter(RunRepository runs, RunCancels cancels, RunWorkflowStart workflowStart) {
    this.runs = runs;
    this.cancels = cancels;
    this.workflowStart = workflowStart;
  }

  /**
   * A run just begun: hands its start to a small pool and returns at once, so the caller answers as
   * soon as the run row is committed. When the pool is saturated the caller starts the workflow
   * itself, which slows triggers down instead of queueing without bound. A start that never happens
   * (process ends with starts queued) is the reconciler's.
   *
   * @param canvas the run's pinned canvas when the caller has it already, else null
   * @param triggerLogged whether the run was stored with its trigger's log entry (insertAccepted)
   */
  void startSoon(AutomationRun run, Canvas canvas, boolean triggerLogged) {
    // the start continues the trace of the request that accepted the run
    starts.execute(
        Context.current().wrap((Runnable) () -> start(run, canvas, triggerLogged, null)));
  }

  @PreDestroy
  void stopStarting() {
    starts.shutdownNow();
  }

  /**
   * Starts the run's workflow where the run's node log stands: from its start for a run that never
   * ran (the log holds at most its trigger), or on from where it stands (see {@link RunResume}).
   * The reconciler restarts runs this way, and a run begun to start {@link
   * RunBeginnings.Start#NOW}; a start that finds the workflow running changes nothing, nor does one
   * that finds an enrolled run's execution closed.
   *
   * @return whether Temporal has the workflow now (false: the reconciler will try again)
   */
  public boolean start(AutomationRun run) {
    // an enrollment's workflow id starts a new execution once the last one closed, so a start
    // does not find this run's execution by itself: one that ran (the first start's, closed since
    // this run was read) would otherwise run again from a node log read before it ended
    if (run.enrollmentId() != null && startedForThisRun(run)) {
      runs.markWorkflowStarted(run.id());
      return true;
    }
    List<NodeLogEntry> logged = runs.loggedNodes(run.id());
    boolean startLogged =
        !logged.isEmpty()
            && logged.get(0).seq() == 1
            && logged.get(0).nodeId().equals(run.startNodeId());
    return start(run, null, startLogged, RunInputs.whereItStood(logged));
  }

  /**
   * @param canvas the run's pinned canvas when the caller has it already, else null
   * @param startLogged whether the start node's log entry exists already (RunInput#triggerLogged)
   * @param resume where the run's node log stands, or null for a run just accepted
   */
  private boolean start(AutomationRun run, Canvas canvas, boolean startLogged, RunResume resume) {
    try {
      cancels.startUnlessCancelled(
          run.id(), () -> workflowStart.start(run, canvas, startLogged, resume));
    } catch (WorkflowExecutionAlreadyStarted already) {
      // started before (an earlier attempt, or the reconciler probing a run not heard from yet);
      // under an enrollment's workflow id the running execution may be the contact's previous
      // enrollment's, still closing: this run then starts once that one has closed
      if (run.enrollmentId() != null && !startedForThisRun(run)) {
        return false;
      }
      runs.markWorkflowStarted(run.id());
    } catch (RuntimeException e) {
      log.warn("Could not start the workflow of run {} yet: {}", run.id(), e.toString());
      return false;
    }
    // no write when the start succeeds: the workflow's first recording marks the run started
    return true;
  }

  /**
   * Whether the latest execution under the enrolled run's workflow id, running or closed, was
   * started for it (false also when Temporal cannot be reached: a start then fails as well).
   */
  private boolean startedForThisRun(AutomationRun run) {
    try {
      return cancels.executionOf(run.id(), run.workflowId()).isPresent();
    } catch (RuntimeException e) {
      log.warn("Could not look for the workflow of run {} yet: {}", run.id(), e.toString());
      return false;
    }
  }
}
