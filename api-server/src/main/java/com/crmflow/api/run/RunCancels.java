package com.crmflow.api.run;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.contract.RunResult;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowTargetOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Cancels of runs, across api-servers: a running run's workflow is cancelled, and a run cancelled
 * before its workflow started never starts ({@link RunStarter} starts each workflow through {@link
 * #startUnlessCancelled}).
 */
@Component
public class RunCancels {

  private static final Logger log = LoggerFactory.getLogger(RunCancels.class);

  private final WorkflowClient client;
  private final RunRepository runs;
  private final RunEnding ending;

  /**
   * Whether other api-servers share this one's runs (the distributed profile): a cancel one of them
   * handles is then seen here only in the database (see {@link #cancelledBeforeStart}).
   */
  private final boolean sharedByApiServers;

  /** Runs cancelled before their workflow started (see {@link #cancelledBeforeStart}). */
  private final Cache<UUID, Boolean> cancelledUnstarted =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofHours(1)).maximumSize(100_000).build();

  @Autowired
  RunCancels(
      WorkflowClient client, RunRepository runs, RunEnding ending, CrmProperties properties) {
    this(client, runs, ending, properties.runs().sharedByApiServers());
  }

  /**
   * @param sharedByApiServers whether several api-servers accept, start and cancel the same runs
   */
  RunCancels(
      WorkflowClient client, RunRepository runs, RunEnding ending, boolean sharedByApiServers) {
    this.client = client;
    this.runs = runs;
    this.ending = ending;
    this.sharedByApiServers = sharedByApiServers;
  }

  /**
   * A cancel (of the run, or an unenroll) found no workflow: the run is ended as cancelled, if it
   * still runs (the reconciler leaves it then), and since its start may still be on its way (queued
   * in the start pool), this process never starts it, and cancels it at once if the start was
   * already under way. Remembered an hour, far longer than a start waits.
   *
   * <p>With api-servers sharing the runs, the start may be another server's. Every start then also
   * reads the run's status, before and after it starts the workflow, and this cancel looks for the
   * workflow once more after the run has ended. Whatever the order, one of the two sees the other:
   * a start after that second look finds the run cancelled, and a start before it is found by it.
   *
   * @param workflowId the run's workflow id
   */
  public void cancelledBeforeStart(UUID runId, String workflowId) {
    cancelledBeforeStart(runId, workflowId, null);
  }

  /**
   * As {@link #cancelledBeforeStart(UUID, String)}, the run ended with the reason as its error
   * ({@code flow paused}).
   */
  public void cancelledBeforeStart(UUID runId, String workflowId, String reason) {
    cancelledUnstarted.put(runId, Boolean.TRUE);
    ending.end(runId, List.of(), RunResult.CANCELLED, reason);
    if (sharedByApiServers) {
      cancelIfStartedElsewhere(runId, workflowId);
    }
  }

  /**
   * Cancels the workflow execution started for this run, if it runs. An enrollment's workflow id
   * passes to the contact's next enrollment, so the execution under the run's workflow id may be
   * another run's: that one is left alone (memo run_id; an execution without that memo is taken to
   * be this run's).
   *
   * @return false when no execution of this run runs: not started yet, or over
   * @throws RuntimeException when Temporal cannot be reached
   */
  public boolean cancelRunning(UUID runId, String workflowId) {
    Optional<WorkflowExecutionDescription> found = executionOf(runId, workflowId);
    if (found.isEmpty()
        || found.get().getStatus() != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
      return false;
    }
    return cancelExecution(found.get().getExecution());
  }

  /**
   * The execution under the workflow id, running or closed, if it was started for this run (memo
   * run_id; an execution without that memo is taken to be this run's).
   *
   * @throws RuntimeException when Temporal cannot be reached
   */
  Optional<WorkflowExecutionDescription> executionOf(UUID runId, String workflowId) {
    WorkflowExecutionDescription found;
    try {
      found = client.newUntypedWorkflowStub(workflowId).describe();
    } catch (WorkflowNotFoundException notStarted) {
      return Optional.empty();
    }
    Object startedFor = found.getMemo("run_id", String.class);
    return startedFor == null || startedFor.equals(runId.toString())
        ? Optional.of(found)
        : Optional.empty();
  }

  /**
   * @return false when the execution ended meanwhile
   * @throws RuntimeException when Temporal cannot be reached
   */
  private boolean cancelExecution(WorkflowExecution execution) {
    try {
      client
          .newUntypedWorkflowStub(
              WorkflowTargetOptions.newBuilder().setWorkflowExecution(execution).build(),
              Optional.empty())
          .cancel();
      return true;
    } catch (WorkflowNotFoundException endedMeanwhile) {
      return false;
    }
  }

  /** Cancels the run's workflow if another api-server has started it. */
  private void cancelIfStartedElsewhere(UUID runId, String workflowId) {
    try {
      cancelRunning(runId, workflowId);
    } catch (RuntimeException unreachable) {
      log.warn(
          "Could not look for a workflow of cancelled run {}: {}", runId, unreachable.toString());
    }
  }

  /**
   * Starts the run's workflow unless the run was cancelled before: a run cancelled while its start
   * waited never starts, and one whose cancel came while it was being started is cancelled at once
   * (the run is read again once its workflow exists: the other half of what {@link
   * #cancelledBeforeStart} promises).
   *
   * @param start starts the workflow; null when it started none
   */
  void startUnlessCancelled(UUID runId, Supplier<WorkflowExecution> start) {
    if (wasCancelled(runId)) {
      return; // cancelled while its start waited: it never starts
    }
    WorkflowExecution started = start.get();
    if (started != null && wasCancelled(runId)) {
      cancel(started); // the cancel came between the check above and the start
    }
  }

  /** Cancels that execution of a cancelled run's workflow, if it still runs. */
  private void cancel(WorkflowExecution execution) {
    try {
      cancelExecution(execution);
    } catch (RuntimeException unreachable) {
      log.warn(
          "Could not cancel workflow {} of a cancelled run: {}",
          execution.getWorkflowId(),
          unreachable.toString());
    }
  }

  /** Whether the run was cancelled (this process's cancels; with shared runs, anyone's). */
  private boolean wasCancelled(UUID runId) {
    return cancelledUnstarted.estimatedSize() > 0 && cancelledUnstarted.getIfPresent(runId) != null
        || sharedByApiServers && runs.isCancelled(runId);
  }
}
