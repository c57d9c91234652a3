package com.crmflow.api.schedule;

import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.FlowChanged;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.schedule.ScheduleTriggerRepository.ScheduleRow;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.temporal.TenantFairness;
import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.schedule.ScheduleInput;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflow;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.common.SearchAttributes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Keeps each active automation's ScheduleTriggerWorkflow running, and only those. A change to a
 * flow (status or canvas) records what should run in {@code schedule_trigger}, in the change's
 * transaction; after the commit the workflows are made to match: started (terminating an older one,
 * so a canvas change restarts the schedule on the new version) or terminated. When Temporal is
 * unreachable the rows stay pending and the reconciler retries.
 */
@Component
class ScheduleTriggers implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(ScheduleTriggers.class);

  /**
   * How long a reconcile holds a row it took: longer than the slowest apply, two Temporal calls
   * that the SDK retries for up to a minute each while Temporal does not answer.
   */
  static final Duration APPLY_HOLD = Duration.ofMinutes(3);

  private final ScheduleTriggerRepository schedules;
  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final WorkflowClient temporal;
  private final CrmProperties.Schedules settings;

  ScheduleTriggers(
      ScheduleTriggerRepository schedules,
      SequenceRepository sequences,
      CanvasRepository canvases,
      WorkflowClient temporal,
      CrmProperties properties) {
    this.settings = properties.schedules();
    this.schedules = schedules;
    this.sequences = sequences;
    this.canvases = canvases;
    this.temporal = temporal;
  }

  /** In the change's transaction: what should run now. */
  @EventListener
  void recordWanted(FlowChanged change) {
    Sequence sequence = sequences.find(change.tenantId(), change.sequenceId()).orElseThrow();
    List<CanvasNode> wanted =
        sequence.isAutomation() && Sequence.ACTIVE.equals(sequence.status())
            ? canvases
                .versionOrEmpty(change.tenantId(), sequence.id(), sequence.currentVersion())
                .toCanvas()
                .nodes()
                .stream()
                .filter(n -> NodeType.SCHEDULE_TRIGGER.value().equals(n.type()))
                .toList()
            : List.of();
    Map<String, ScheduleRow> existing =
        schedules.ofSequence(change.tenantId(), sequence.id()).stream()
            .collect(Collectors.toMap(ScheduleRow::nodeId, r -> r));
    for (CanvasNode node : wanted) {
      ScheduleRow row = existing.get(node.id());
      Map<String, Object> config = node.data() == null ? Map.of() : node.data().config();
      boolean unchanged =
          row != null
              && ScheduleTriggerRepository.RUNNING.equals(row.state())
              && row.canvasVersion() == sequence.currentVersion()
              && row.config().equals(config);
      if (!unchanged) {
        schedules.wantRunning(
            change.tenantId(), node.id(), sequence.id(), sequence.currentVersion(), config);
      }
    }
    Set<String> wantedIds = wanted.stream().map(CanvasNode::id).collect(Collectors.toSet());
    existing.keySet().stream()
        .filter(id -> !wantedIds.contains(id))
        .forEach(id -> schedules.wantStopped(change.tenantId(), id));
  }

  /** After the commit: make the workflows match. */
  @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT)
  void applyAfterCommit(FlowChanged change) {
    schedules.ofSequence(change.tenantId(), change.sequenceId()).forEach(this::apply);
  }

  /**
   * On start: a schedule whose workflow is gone (the embedded Temporal server keeps workflows in
   * memory, so a restart loses them) or has ended is started again.
   */
  @EventListener(ApplicationReadyEvent.class)
  synchronized void restartLostSchedules() {
    for (ScheduleRow row : schedules.running()) {
      String workflowId =
          ScheduleTriggerWorkflow.workflowId(row.tenantId().toString(), row.nodeId());
      try {
        WorkflowExecutionStatus status =
            temporal
                .getWorkflowServiceStubs()
                .blockingStub()
                .describeWorkflowExecution(
                    DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace(temporal.getOptions().getNamespace())
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                        .build())
                .getWorkflowExecutionInfo()
                .getStatus();
        if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
          restart(row);
        }
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
          restart(row);
        } else {
          log.warn("Cannot check schedule {} yet: {}", workflowId, e.toString());
          return;
        }
      }
    }
    reconcile();
  }

  /**
   * Every minute as well: a schedule whose workflow was closed from outside (terminated in the
   * Temporal UI or CLI, say) is started again, so that it goes on firing while its automation is
   * active. An automation's schedule stops when the automation is paused or archived.
   */
  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    Duration check = settings.checkInterval();
    tasks.addFixedDelayTask(new FixedDelayTask(this::restartClosedSchedules, check, check));
    tasks.addFixedDelayTask(this::reconcile, settings.reconcileInterval());
  }

  void restartClosedSchedules() {
    restartLostSchedules();
  }

  /** Starts the schedule of a row found running without its workflow. */
  private void restart(ScheduleRow row) {
    schedules.restart(row).ifPresent(this::apply);
  }

  /**
   * Applies the rows that a change's own apply after its commit has not got through within a
   * reconcile interval (Temporal was unreachable, the process died). A newer row is left to that
   * apply: both applying it would start its workflow twice, the later start terminating the
   * earlier, and the schedule's fires would trace to this task rather than to the request that
   * changed the flow. Each row is taken first, so that of two api-servers' reconciles only one
   * applies it; a row that Temporal refuses is passed over, so it holds up no other.
   */
  synchronized void reconcile() {
    Duration interval = settings.reconcileInterval();
    for (ScheduleRow pending : schedules.pending(interval, 100)) {
      Optional<ScheduleRow> taken = schedules.take(pending, interval, APPLY_HOLD);
      if (taken.isPresent() && !apply(taken.get())) {
        schedules.giveBack(taken.get(), interval);
        break; // Temporal still unreachable: next round
      }
    }
  }

  /**
   * @return false when Temporal could not be reached; true when the row was applied, or refused by
   *     Temporal (the reconcile tries it again after its hold)
   */
  boolean apply(ScheduleRow row) {
    String workflowId = ScheduleTriggerWorkflow.workflowId(row.tenantId().toString(), row.nodeId());
    try {
      switch (row.state()) {
        case ScheduleTriggerRepository.STARTING -> {
          terminate(workflowId, "restarted on canvas version " + row.canvasVersion());
          start(workflowId, row);
          schedules.started(row);
        }
        case ScheduleTriggerRepository.STOPPING -> {
          terminate(workflowId, "the automation is no longer active with this schedule");
          schedules.stopped(row);
        }
        default -> {
          // running: nothing to do
        }
      }
      return true;
    } catch (RuntimeException e) {
      Optional<Status> refusal = refusalByTemporal(e);
      if (refusal.isPresent()) {
        log.warn(
            "Schedule {} refused by Temporal, left to the reconcile: {} {}",
            workflowId,
            refusal.get().getCode(),
            refusal.get().getDescription());
        return true;
      }
      log.warn("Schedule {} not applied yet: {}", workflowId, e.toString());
      return false;
    }
  }

  /**
   * Temporal's answer when it rejects an argument of this row's request (its input over the blob
   * size limit, say); empty when it did not answer, is overloaded, refuses the service itself (its
   * namespace, its permissions) or failed in itself, which holds for every row.
   */
  static Optional<Status> refusalByTemporal(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof StatusRuntimeException status) {
        return status.getStatus().getCode() == Status.Code.INVALID_ARGUMENT
            ? Optional.of(status.getStatus())
            : Optional.empty();
      }
    }
    return Optional.empty();
  }

  private void terminate(String workflowId, String reason) {
    try {
      temporal.newUntypedWorkflowStub(workflowId).terminate(reason);
    } catch (WorkflowNotFoundException notRunning) {
      // never started or already over
    }
  }

  private void start(String workflowId, ScheduleRow row) {
    Map<String, Object> memo = new LinkedHashMap<>();
    memo.put("tenant_id", row.tenantId().toString());
    memo.put("sequence_id", row.sequenceId().toString());
    memo.put("node_id", row.nodeId());
    memo.put("canvas_version", row.canvasVersion());
    ScheduleTriggerWorkflow workflow =
        temporal.newWorkflowStub(
            ScheduleTriggerWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.AUTOMATION)
                .setWorkflowId(workflowId)
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                .setMemo(memo)
                .setPriority(TenantFairness.of(row.tenantId()))
                .setTypedSearchAttributes(
                    SearchAttributes.newBuilder()
                        .set(CrmSearchAttributes.TENANT_ID, row.tenantId().toString())
                        .set(CrmSearchAttributes.SEQUENCE_ID, row.sequenceId().toString())
                        .set(CrmSearchAttributes.TRIGGER_KIND, "schedule_trigger")
                        .set(CrmSearchAttributes.STATUS, "active")
                        .build())
                .setStaticSummary(
                    "Schedule "
                        + describe(row.config())
                        + " · sequence "
                        + row.sequenceId()
                        + " (canvas v"
                        + row.canvasVersion()
                        + ")")
                .build());
    try {
      WorkflowClient.start(
          workflow::run,
          new ScheduleInput(
              row.tenantId().toString(),
              row.sequenceId().toString(),
              row.nodeId(),
              row.canvasVersion(),
              row.config(),
              null));
    } catch (WorkflowExecutionAlreadyStarted raced) {
      // another instance applied the same row a moment ago
    }
  }

  /** "daily at 09:00 Europe/Berlin", "cron 0 9 * * 1-5 Europe/Berlin", for the Temporal UI. */
  static String describe(Map<String, Object> config) {
    Object type = config.get("scheduleType");
    Object zone = config.get("timezone");
    if ("custom".equals(type)) {
      return "cron " + config.get("customCron") + " " + zone;
    }
    String days = "weekly".equals(type) ? " on days " + config.get("daysOfWeek") : "";
    return type + days + " at " + config.get("time") + " " + zone;
  }
}
