package com.crmflow.api.temporal;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.temporal.MirroredRecords.ClosedExecution;
import com.crmflow.workflow.contract.RunResult;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowExecutionMetadata;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowTargetOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
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
 * <p><b>Closed from outside.</b> Every interval the sweep asks Temporal's visibility for the
 * executions that closed other than by completing (failed, terminated, timed out, cancelled) since
 * its last look ({@link #VISIBILITY_LAG} earlier, as visibility records an execution's close a
 * moment after it), and a process's first look {@code crm.close-check.look-back} back. Each such
 * execution's open record, of whichever {@link MirroredRecords} kind, ends the way its kind says,
 * with how it closed. A look costs what the closed executions cost, nothing per record that waits:
 * a hundred thousand runs waiting on a delay are never looked at one by one, by this process or by
 * Temporal's visibility store (the query bounds the close time on both sides, {@link
 * #closedFromOutside}).
 *
 * <p><b>Lost by Temporal.</b> A record whose workflow Temporal does not know at all ends failed,
 * saying so: its state is gone, and nothing would ever end it otherwise; a retry from its node log
 * goes on from there. Temporal loses workflows when its database is reset or replaced, and then the
 * namespace is made again with a new id. The sweep reads the namespace's id every look and keeps
 * the one it saw (table {@code temporal_namespace_seen}); when it differs, it walks every open
 * record once, {@code crm.close-check.batch} per look in id order, asking Temporal for each one's
 * workflow, and keeps the new id once the walk is through.
 *
 * <p>A run's workflow that failed with the run's own failure ({@link RunResult#FAILURE_TYPE}: it
 * records its end first, then fails) ends a record still open {@code failed} with the run's error,
 * as the run would have recorded it, not as a workflow lost or stopped from outside.
 *
 * <p>Left alone: a completed workflow (its record's end is on its way), an execution of another
 * record under the same workflow id, and every record while Temporal cannot be reached (the next
 * look tries again, from where the last one that got through began).
 */
@Component
public class ClosedWorkflowSweep implements SchedulingConfigurer {

  /** How long after its close an execution may reach the visibility store. */
  static final Duration VISIBILITY_LAG = Duration.ofMinutes(5);

  /**
   * How far past its own clock a look reaches for close times, for a Temporal server whose clock is
   * ahead of this process's (a close further ahead than that is found by a later look, not lost:
   * each look's range starts before the last one's start). The bound itself is what keeps a look's
   * cost off the waiting runs: Temporal's SQL visibility stores sort an execution with no close
   * time (a running one) as closing at the end of time, so a look for closes since some time with
   * no upper bound reads every running execution's row to find the closed ones among them.
   */
  static final Duration CLOSE_TIME_AHEAD = Duration.ofDays(1);

  private static final Logger log = LoggerFactory.getLogger(ClosedWorkflowSweep.class);
  private static final UUID FIRST = new UUID(0, 0); // the lowest uuid in PostgreSQL's order

  private static final String CLOSED_FROM_OUTSIDE =
      "(ExecutionStatus = 'Failed' OR ExecutionStatus = 'Terminated'"
          + " OR ExecutionStatus = 'TimedOut' OR ExecutionStatus = 'Canceled')";

  private final List<MirroredRecords> kinds;
  private final WorkflowClient client;
  private final JdbcClient jdbc;
  private final Clock clock;
  private final int batch;
  private final Duration olderThan;
  private final Duration lookBack;
  private final Duration interval;

  /** Where the last look that got through began; null before the first. */
  private Instant lookedSince;

  /** The namespace id the walk for lost workflows is for; null while none is under way. */
  private String walkingFor;

  /** Per kind, where the walk's next batch starts (records after this id). */
  private final Map<MirroredRecords, UUID> after = new HashMap<>();

  ClosedWorkflowSweep(
      List<MirroredRecords> kinds,
      WorkflowClient client,
      JdbcClient jdbc,
      CrmProperties properties) {
    this.kinds = kinds;
    this.client = client;
    this.jdbc = jdbc;
    this.clock = Clock.systemUTC();
    this.interval = properties.closeCheck().interval();
    this.batch = properties.closeCheck().batch();
    this.olderThan = properties.closeCheck().olderThan();
    this.lookBack = properties.closeCheck().lookBack();
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
   * One look: the executions closed from outside since the last look, and, while a walk for lost
   * workflows is under way, its next batch of each kind of record; of the records created longer
   * than {@code minimumAge} ago.
   *
   * @return how many records it ended
   */
  public synchronized int checkNextBatches(Duration minimumAge) {
    String namespaceId;
    try {
      namespaceId = namespaceId();
    } catch (RuntimeException unreachable) {
      log.warn("Could not look at Temporal's namespace: {}", unreachable.toString());
      return 0;
    }
    int ended = 0;
    Instant lookStarted = clock.instant();
    try {
      ended +=
          endClosedListed(
              closedFromOutside(
                  lookedSince == null
                      ? lookStarted.minus(lookBack)
                      : lookedSince.minus(VISIBILITY_LAG),
                  lookStarted),
              minimumAge);
      lookedSince = lookStarted;
    } catch (RuntimeException unreachable) {
      log.warn("Could not list the workflows closed in Temporal: {}", unreachable.toString());
      return ended;
    }
    String seen = seenNamespaceId();
    if (seen == null) {
      see(namespaceId);
    } else if (!seen.equals(namespaceId) && !namespaceId.equals(walkingFor)) {
      log.warn(
          "Temporal's namespace {} has another id ({}, was {}): looking for the workflows it lost",
          client.getOptions().getNamespace(),
          namespaceId,
          seen);
      walkingFor = namespaceId;
      after.clear();
    }
    if (walkingFor != null) {
      ended += walkForLost(minimumAge);
    }
    return ended;
  }

  /**
   * Walks every open record once more for workflows Temporal lost, as after a new namespace id (for
   * an operator who replaced Temporal's database under the same namespace id, and for tests).
   */
  public synchronized void lookForLostWorkflows() {
    walkingFor = namespaceId();
    after.clear();
  }

  /**
   * The visibility query for the executions closed other than by completing from {@code since} on,
   * bounded above ({@link #CLOSE_TIME_AHEAD}) so that no running execution falls in its range.
   */
  static String closedFromOutside(Instant since, Instant lookStarted) {
    return CLOSED_FROM_OUTSIDE
        + " AND CloseTime >= '"
        + since.truncatedTo(ChronoUnit.SECONDS)
        + "' AND CloseTime <= '"
        + lookStarted.plus(CLOSE_TIME_AHEAD).truncatedTo(ChronoUnit.SECONDS)
        + "'";
  }

  /** Ends the open records of the executions the visibility query finds closed from outside. */
  private int endClosedListed(String query, Duration minimumAge) {
    int ended = 0;
    try (Stream<WorkflowExecutionMetadata> closed = client.listExecutions(query)) {
      for (WorkflowExecutionMetadata execution :
          (Iterable<WorkflowExecutionMetadata>) closed::iterator) {
        String workflowId = execution.getExecution().getWorkflowId();
        String runIdMemo = execution.getMemo("run_id", String.class, String.class);
        for (MirroredRecords kind : kinds) {
          Optional<MirroredRecords.Open> open = kind.openFor(workflowId, runIdMemo, minimumAge);
          if (open.isPresent()) {
            Optional<ClosedExecution> how = closedElsewhere(open.get());
            if (how.isPresent() && endClosed(kind, open.get(), how.get())) {
              ended++;
            }
          }
        }
      }
    }
    return ended;
  }

  /** The next batch of each kind of open record, each asked for its workflow. */
  private int walkForLost(Duration minimumAge) {
    int ended = 0;
    boolean through = true;
    for (MirroredRecords kind : kinds) {
      UUID from = after.getOrDefault(kind, FIRST);
      if (from == null) {
        continue; // this kind's walk is through
      }
      List<MirroredRecords.Open> open = kind.openAfter(from, minimumAge, batch);
      after.put(kind, open.size() < batch ? null : open.get(open.size() - 1).id());
      through &= open.size() < batch;
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
          after.put(kind, from); // this batch again next look, rather than skip any
          return ended;
        }
        if (closed.isPresent() && endClosed(kind, record, closed.get())) {
          ended++;
        }
      }
    }
    if (through) {
      see(walkingFor);
      walkingFor = null;
      after.clear();
    }
    return ended;
  }

  private String namespaceId() {
    return client
        .getWorkflowServiceStubs()
        .blockingStub()
        .describeNamespace(
            DescribeNamespaceRequest.newBuilder()
                .setNamespace(client.getOptions().getNamespace())
                .build())
        .getNamespaceInfo()
        .getId();
  }

  private String seenNamespaceId() {
    return jdbc.sql("select namespace_id from temporal_namespace_seen where namespace = :namespace")
        .param("namespace", client.getOptions().getNamespace())
        .query(String.class)
        .optional()
        .orElse(null);
  }

  private void see(String namespaceId) {
    jdbc.sql(
            """
            insert into temporal_namespace_seen (namespace, namespace_id) values (:namespace, :id)
            on conflict (namespace) do update set namespace_id = :id, seen_at = now()
            """)
        .param("namespace", client.getOptions().getNamespace())
        .param("id", namespaceId)
        .update();
  }

  private static boolean endClosed(
      MirroredRecords kind, MirroredRecords.Open record, ClosedExecution closed) {
    try {
      return endAndLog(kind, record, closed);
    } catch (RuntimeException notEnded) {
      // the record's own trouble: the others are still looked at, and it again next look
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
