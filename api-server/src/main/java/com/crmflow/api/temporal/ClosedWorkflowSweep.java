package com.crmflow.api.temporal;

import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.temporal.MirroredRecords.ClosedExecution;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowTargetOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/**
 * Ends the records whose workflow Temporal closed without the record's end. A workflow records
 * every end it reaches (a cancel from the Temporal UI included). An end imposed from outside it
 * cannot record: an operator's Terminate in the Temporal UI or CLI, a timeout, a server that closes
 * the workflow (a payload over its size limit, a history over its length limit). Its run read
 * "running" for good, its webhook delivery "pending".
 *
 * <p>Every interval the sweep takes, of each kind of {@link MirroredRecords}, the next batch of
 * open records whose workflow started (in id order, round and round, so every open record is looked
 * at in turn however many there are) and asks Temporal for each one's workflow. A closed execution
 * ends its record, the way its kind says, with how it closed.
 *
 * <p>A record whose workflow Temporal does not know at all ends failed too, saying so: its state is
 * gone (a Temporal database that was reset or replaced, a retention shorter than the record's
 * life), and nothing would ever end it otherwise; a retry from its node log goes on from there.
 *
 * <p>A run's workflow that failed with the run's own failure ({@link RunResult#FAILURE_TYPE}: it
 * records its end first, then fails) ends a record still open {@code failed} with the run's error,
 * as the run would have recorded it, not as a workflow lost or stopped from outside.
 *
 * <p>Left alone: a completed workflow (its record's end is on its way), an execution of another
 * record under the same workflow id, and every record while Temporal cannot be reached (the next
 * round tries again).
 */
@Component
public class ClosedWorkflowSweep implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(ClosedWorkflowSweep.class);
  private static final UUID FIRST = new UUID(0, 0); // the lowest uuid in PostgreSQL's order

  private final List<MirroredRecords> kinds;
  private final WorkflowClient client;
  private final int batch;
  private final Duration olderThan;

  /** Per kind, where its next batch starts (records after this id). */
  private final Map<MirroredRecords, UUID> after = new HashMap<>();

  private final Duration interval;

  ClosedWorkflowSweep(
      List<MirroredRecords> kinds, WorkflowClient client, CrmProperties properties) {
    this.interval = properties.closeCheck().interval();
    int batch = properties.closeCheck().batch();
    Duration olderThan = properties.closeCheck().olderThan();
    this.kinds = kinds;
    this.client = client;
    this.batch = batch;
    this.olderThan = olderThan;
  }

  /**
   * How old a record must be before the sweep looks at it: a terminated workflow's worker may still
   * log the call it was in for some seconds.
   */
  public Duration olderThan() {
    return olderThan;
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(new FixedDelayTask(this::checkNextBatches, interval, interval));
  }

  void checkNextBatches() {
    checkNextBatches(olderThan);
  }

  /**
   * Looks at the next batch of each kind of record, of those created longer than {@code minimumAge}
   * ago.
   *
   * @return how many records it ended
   */
  public synchronized int checkNextBatches(Duration minimumAge) {
    int ended = 0;
    for (MirroredRecords kind : kinds) {
      List<MirroredRecords.Open> open =
          kind.openAfter(after.getOrDefault(kind, FIRST), minimumAge, batch);
      after.put(kind, open.size() < batch ? FIRST : open.get(open.size() - 1).id());
      for (MirroredRecords.Open record : open) {
        Optional<ClosedExecution> closed;
        try {
          closed = closedElsewhere(record);
        } catch (RuntimeException unreachable) {
          log.warn(
              "Could not look at the workflow of {} {}: {}",
              kind.kind(),
              record.id(),
              unreachable.toString());
          after.put(kind, FIRST); // from the start again next round, rather than skip any
          break;
        }
        if (closed.isPresent() && endClosed(kind, record, closed.get())) {
          ended++;
        }
      }
    }
    return ended;
  }

  private static boolean endClosed(
      MirroredRecords kind, MirroredRecords.Open record, ClosedExecution closed) {
    try {
      return endAndLog(kind, record, closed);
    } catch (RuntimeException notEnded) {
      // the record's own trouble: the others are still looked at, and it again next round
      log.error("Could not end {} {}", kind.kind(), record.id(), notEnded);
      return false;
    }
  }

  private static boolean endAndLog(
      MirroredRecords kind, MirroredRecords.Open record, ClosedExecution closed) {
    boolean endedHere = kind.endClosed(record, closed);
    if (endedHere) {
      log.warn(
          "Ended {} {}: its workflow {} was closed in Temporal ({})",
          kind.kind(),
          record.id(),
          record.workflowId(),
          closed.description());
    }
    return endedHere;
  }

  /** How the record's execution closed, if it closed other than by completing. */
  private Optional<ClosedExecution> closedElsewhere(MirroredRecords.Open record) {
    WorkflowExecutionDescription found;
    try {
      found = client.newUntypedWorkflowStub(record.workflowId()).describe();
    } catch (WorkflowNotFoundException unknown) {
      return Optional.of(LOST);
    }
    Object startedFor = found.getMemo("run_id", String.class);
    if (found.getStatus() == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING
        || record.runIdMemo() != null
            && startedFor != null
            && !startedFor.equals(record.runIdMemo())) {
      return Optional.empty();
    }
    try {
      client
          .newUntypedWorkflowStub(
              WorkflowTargetOptions.newBuilder().setWorkflowExecution(found.getExecution()).build(),
              Optional.empty())
          .getResult(10, TimeUnit.SECONDS, Object.class);
      return Optional.empty(); // completed: the workflow's own record of the end comes first
    } catch (WorkflowFailedException failed) {
      return Optional.of(describe(failed.getCause()));
    } catch (TimeoutException notClosedAfterAll) {
      return Optional.empty();
    }
  }

  private static ClosedExecution describe(Throwable how) {
    if (how instanceof CanceledFailure) {
      return cancelled();
    }
    if (how instanceof ApplicationFailure failure
        && RunResult.FAILURE_TYPE.equals(failure.getType())) {
      // the run failed itself, naming its node: the record takes that end as the run wrote it
      return new ClosedExecution(false, failure.getOriginalMessage());
    }
    if (how instanceof TimeoutFailure) {
      return timedOut();
    }
    String what =
        how instanceof TerminatedFailure
            ? "The workflow was terminated in Temporal"
            : "The workflow failed in Temporal";
    String reason =
        how instanceof TemporalFailure failure
            ? failure.getOriginalMessage()
            : how == null ? null : how.getMessage();
    return stopped(what, reason);
  }

  private static final ClosedExecution LOST =
      new ClosedExecution(
          false,
          "Temporal has no workflow for it any more: its state was lost or removed (retry the run"
              + " to go on from its node log)");

  private static ClosedExecution cancelled() {
    return new ClosedExecution(true, "The workflow was cancelled in Temporal");
  }

  private static ClosedExecution timedOut() {
    return new ClosedExecution(false, "The workflow timed out in Temporal");
  }

  private static ClosedExecution stopped(String what, String reason) {
    return new ClosedExecution(
        false,
        reason == null || reason.isBlank() ? what + " (no reason given)" : what + ": " + reason);
  }
}
