package com.crmflow.api.run;

import com.crmflow.workflow.run.NodeLogEntry;
import com.crmflow.workflow.run.RunResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowTargetOptions;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Ends the runs whose workflow Temporal closed without the run's own record of its end. The
 * workflow records every end it reaches (completed, failed, cancelled, a cancel from the Temporal
 * UI included). An end imposed from outside it cannot record: an operator's Terminate in the
 * Temporal UI or CLI, a timeout, a server that fails the workflow. Such a run read "running" for
 * good.
 *
 * <p>Every interval the sweep takes the next batch of running runs whose workflow started (in id
 * order, round and round, so every running run is looked at in turn however many there are) and
 * asks Temporal for each one's workflow. A closed execution ends its run: failed, naming how it
 * ended ("The workflow was terminated in Temporal: reason"), with the node entries still running
 * failed the same way so that a retry starts from them; cancelled, for a workflow cancelled without
 * its record.
 *
 * <p>Left alone: a workflow Temporal does not know (an embedded server restarted: the {@link
 * RunResumer} starts it again), a completed workflow (its run's end is on its way), an execution of
 * another run under the same workflow id (an enrollment's id passes to the contact's next
 * enrollment), and every run when Temporal cannot be reached (the next round tries again).
 */
@Component
class ClosedWorkflowSweep {

  private static final Logger log = LoggerFactory.getLogger(ClosedWorkflowSweep.class);
  private static final UUID FIRST = new UUID(0, 0); // the lowest uuid in PostgreSQL's order

  private final RunRepository runs;
  private final RunEnding ending;
  private final WorkflowClient client;
  private final int batch;
  private final Duration olderThan;
  private final Counter ended;

  /** Where the next batch starts (runs after this id). */
  private UUID after = FIRST;

  ClosedWorkflowSweep(
      RunRepository runs,
      RunEnding ending,
      WorkflowClient client,
      @Value("${crm.runs.close-check.batch:100}") int batch,
      @Value("${crm.runs.close-check.older-than:5m}") Duration olderThan,
      MeterRegistry meters) {
    this.runs = runs;
    this.ending = ending;
    this.client = client;
    this.batch = batch;
    this.olderThan = olderThan;
    this.ended =
        Counter.builder("crm.runs.closed.elsewhere")
            .description(
                "Runs ended because their workflow was closed outside the run's own recording"
                    + " (terminated or timed out in Temporal)")
            .register(meters);
  }

  @Scheduled(
      fixedDelayString = "${crm.runs.close-check.interval:30s}",
      initialDelayString = "${crm.runs.close-check.interval:30s}")
  void checkNextBatch() {
    checkNextBatch(olderThan);
  }

  /**
   * Looks at the next batch of running runs accepted longer than {@code minimumAge} ago.
   *
   * @return the runs it ended
   */
  synchronized List<UUID> checkNextBatch(Duration minimumAge) {
    List<RunRepository.StartedRun> batchRuns =
        runs.runningStartedAfter(after, (int) minimumAge.toSeconds(), batch);
    after = batchRuns.size() < batch ? FIRST : batchRuns.get(batchRuns.size() - 1).id();
    List<UUID> endedRuns = new ArrayList<>();
    for (RunRepository.StartedRun run : batchRuns) {
      try {
        if (endIfClosed(run)) {
          endedRuns.add(run.id());
        }
      } catch (RuntimeException unreachable) {
        log.warn("Could not look at the workflow of run {}: {}", run.id(), unreachable.toString());
        after = FIRST; // from the start again next round, rather than skip what was not seen
        break;
      }
    }
    return endedRuns;
  }

  private boolean endIfClosed(RunRepository.StartedRun run) {
    WorkflowExecutionDescription found;
    try {
      found = client.newUntypedWorkflowStub(run.workflowId()).describe();
    } catch (WorkflowNotFoundException forgotten) {
      return false;
    }
    Object startedFor = found.getMemo("run_id", String.class);
    if (found.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || startedFor != null && !startedFor.equals(run.id().toString())) {
      return false;
    }
    Optional<TemporalFailure> howItEnded = closeOf(found);
    if (howItEnded.isEmpty()) {
      return false; // completed: the workflow's own record of the end comes first
    }
    TemporalFailure failure = howItEnded.get();
    boolean cancelled = failure instanceof CanceledFailure;
    String error = cancelled ? null : describe(failure);
    List<NodeLogEntry> closedEntries = new ArrayList<>();
    if (!cancelled) {
      String now = NodeLogEntry.timestamp(Instant.now());
      for (NodeLogEntry entry : runs.loggedNodes(run.id())) {
        if (RunResult.RUNNING.equals(entry.status())) {
          closedEntries.add(
              new NodeLogEntry(
                  entry.seq(),
                  entry.nodeId(),
                  entry.nodeType(),
                  RunResult.FAILED,
                  entry.startedAt(),
                  now,
                  null,
                  error));
        }
      }
    }
    boolean endedHere =
        ending.end(
            run.id(), closedEntries, cancelled ? RunResult.CANCELLED : RunResult.FAILED, error);
    if (endedHere) {
      ended.increment();
      log.warn(
          "Run {} ended: its workflow {} was closed in Temporal ({})",
          run.id(),
          run.workflowId(),
          cancelled ? "cancelled" : error);
    }
    return endedHere;
  }

  /** How the closed execution ended; empty when it completed. */
  private Optional<TemporalFailure> closeOf(WorkflowExecutionDescription closed) {
    try {
      client
          .newUntypedWorkflowStub(
              WorkflowTargetOptions.newBuilder()
                  .setWorkflowExecution(closed.getExecution())
                  .build(),
              Optional.empty())
          .getResult(10, TimeUnit.SECONDS, Object.class);
      return Optional.empty();
    } catch (WorkflowFailedException failed) {
      return Optional.of(
          failed.getCause() instanceof TemporalFailure cause
              ? cause
              : new TerminatedFailure(failed.getMessage(), null));
    } catch (TimeoutException notClosedAfterAll) {
      return Optional.empty();
    }
  }

  private static String describe(TemporalFailure failure) {
    if (failure instanceof TimeoutFailure) {
      return "The workflow timed out in Temporal";
    }
    String how =
        failure instanceof TerminatedFailure
            ? "The workflow was terminated in Temporal"
            : "The workflow failed in Temporal";
    String reason = failure.getOriginalMessage();
    return reason == null || reason.isBlank() ? how + " (no reason given)" : how + ": " + reason;
  }
}
