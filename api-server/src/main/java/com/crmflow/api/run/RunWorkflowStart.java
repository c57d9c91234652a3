package com.crmflow.api.run;

import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.temporal.TenantFairness;
import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.history.HistoryPayloads;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributes;
import io.temporal.common.converter.RawValue;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * One workflow start of a stored run, as Temporal and its UI see it: the run's input (from {@link
 * RunInputs}, with {@link RetryChains} for a retry only), its size against what a server takes, and
 * the start's options (workflow id and reuse policy, memo, search attributes, the summary and
 * details the Temporal UI shows). When and whether a run starts is {@link RunStarter}'s.
 */
@Component
class RunWorkflowStart {

  private final WorkflowClient client;
  private final RunEnding ending;
  private final SequenceRepository sequences;
  private final RunInputs inputs;
  private final RetryChains retries;
  private final RunCancels cancels;

  /** Flow names for the Temporal UI's summaries; a rename shows in runs started a minute later. */
  private final Cache<UUID, String> flowNames =
      Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(1)).maximumSize(10_000).build();

  RunWorkflowStart(
      WorkflowClient client,
      RunEnding ending,
      SequenceRepository sequences,
      RunInputs inputs,
      RetryChains retries,
      RunCancels cancels) {
    this.client = client;
    this.ending = ending;
    this.sequences = sequences;
    this.inputs = inputs;
    this.retries = retries;
    this.cancels = cancels;
  }

  /**
   * Starts the run's workflow, or ends the run failed when no server would take its input. Called
   * only by {@link RunStarter}, which guards it against a cancel and takes a start that finds the
   * workflow started as done.
   *
   * @return the execution started; null when none was (the run is over)
   */
  WorkflowExecution start(AutomationRun run, Canvas canvas, boolean startLogged, RunResume resume) {
    Canvas pinned = canvas != null ? canvas : inputs.canvasOf(run);
    // a fresh run carries nothing on: only a retry reads its chain
    RetryChains.RetryContext carried =
        run.retryOf() == null ? RetryChains.RetryContext.NONE : retries.contextOf(pinned, run);
    RunInput input = inputs.of(run, pinned, carried, startLogged, resume);
    // written once, as the start sends it: its size is the size of the payload sent
    Payload payload = client.getOptions().getDataConverter().toPayload(input).orElseThrow();
    // a payload and a contact of up to 1 MB each, a canvas of up to 1 MB, the outputs a retry or
    // a resumed run carries on: together they can be more than a server takes
    int bytes = payload.getSerializedSize();
    if (bytes > HistoryPayloads.LIMIT_BYTES) {
      if (cancels.executionOf(run.id(), run.workflowId()).isPresent()) {
        return null; // started before (a reconciler probe of a run not heard from lately)
      }
      // no server would take it, and trying again would not change that
      ending.end(
          run.id(),
          List.of(),
          RunResult.FAILED,
          "the run cannot start: its workflow input (trigger payload, contact, canvas and any"
              + " outputs it carries on) is "
              + bytes
              + " bytes of JSON, over the "
              + HistoryPayloads.LIMIT_BYTES
              + " bytes Temporal takes");
      return null;
    }
    String triggerKind = triggerKind(run, input.canvas());
    String flowName = flowName(run);
    Map<String, Object> memo = new LinkedHashMap<>();
    memo.put("tenant_id", run.tenantId().toString());
    memo.put("sequence_id", run.sequenceId().toString());
    memo.put("sequence_name", flowName);
    memo.put("run_id", run.id().toString());
    memo.put("canvas_version", run.canvasVersion());
    memo.put("trigger", triggerKind);
    if (run.enrollmentId() != null) {
      memo.put("enrollment_id", run.enrollmentId().toString());
    }
    if (run.retryOf() != null) {
      memo.put("retry_of", run.retryOf().toString());
    }
    WorkflowOptions.Builder options =
        WorkflowOptions.newBuilder()
            .setTaskQueue(TaskQueues.AUTOMATION)
            .setWorkflowId(run.workflowId())
            // when this process's worker polls the queue and has a free slot, the first
            // workflow task comes back with the start answer: no poll round trip
            .setDisableEagerExecution(false)
            .setMemo(memo)
            .setPriority(
                run.enrollmentId() != null
                    ? TenantFairness.ofEnrollments(run.tenantId())
                    : TenantFairness.of(run.tenantId()))
            .setTypedSearchAttributes(
                SearchAttributes.newBuilder()
                    .set(CrmSearchAttributes.TENANT_ID, run.tenantId().toString())
                    .set(CrmSearchAttributes.SEQUENCE_ID, run.sequenceId().toString())
                    .set(CrmSearchAttributes.TRIGGER_KIND, triggerKind)
                    .set(CrmSearchAttributes.STATUS, RunResult.RUNNING)
                    .build())
            .setStaticSummary(summary(run, flowName, triggerKind, input.canvas()))
            .setStaticDetails(details(run));
    if (run.enrollmentId() == null) {
      AutomationRunWorkflow workflow =
          client.newWorkflowStub(
              AutomationRunWorkflow.class,
              // a run executes once: a second start (reconciler, retry of the start) of an id
              // whose workflow already finished must not run it again
              options
                  .setWorkflowIdReusePolicy(
                      WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
                  .build());
      return WorkflowStub.fromTyped(workflow).start(new RawValue(payload));
    }
    // the id names the (tenant, sequence, contact), reused by a later enrollment once this
    // one ended; the reconciler only restarts runs still running, so an ended run stays ended.
    // The run's id as the start's request id: a second start of this run (its start from the
    // pool after the reconciler's, two api-servers' reconcilers) is answered with the execution
    // the first began while that is the id's latest, running or closed, and starts no other
    EnrollmentWorkflow workflow =
        client.newWorkflowStub(
            EnrollmentWorkflow.class,
            options
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                .setRequestId(run.id().toString())
                .build());
    return WorkflowStub.fromTyped(workflow).start(new RawValue(payload));
  }

  /**
   * What started the run, as its search attribute {@code CrmTriggerKind} says: {@code test} (a test
   * run), {@code enrollment}, {@code retry}, or the type of its trigger node ({@code
   * webhook_trigger}, {@code schedule_trigger}, {@code crm_event_trigger}).
   */
  static String triggerKind(AutomationRun run, Canvas canvas) {
    if (run.test()) {
      return "test";
    }
    if (run.retryOf() != null) {
      return "retry";
    }
    if (run.enrollmentId() != null) {
      return "enrollment";
    }
    return canvas.node(run.triggerNodeId()).map(CanvasNode::type).orElse("trigger");
  }

  /** The automation's or sequence's name, for the Temporal UI (remembered a minute). */
  private String flowName(AutomationRun run) {
    return flowNames.get(
        run.sequenceId(),
        id -> sequences.find(run.tenantId(), id).map(Sequence::name).orElse("(deleted flow)"));
  }

  /** One line a person reads in the Temporal UI's list: what ran, started how, which run. */
  private static String summary(
      AutomationRun run, String flowName, String triggerKind, Canvas canvas) {
    String trigger =
        canvas
            .node(run.triggerNodeId())
            .map(n -> n.label() == null || n.label().isBlank() ? triggerKind : n.label())
            .orElse(triggerKind);
    String what = run.enrollmentId() != null ? "Enrollment in " : "Automation ";
    return what + "\"" + flowName + "\" · " + trigger + " · run " + run.id();
  }

  /** Markdown the Temporal UI shows on the workflow's page. */
  private static String details(AutomationRun run) {
    StringBuilder details =
        new StringBuilder()
            .append("**Run** `")
            .append(run.id())
            .append("` of sequence `")
            .append(run.sequenceId())
            .append("` (canvas version ")
            .append(run.canvasVersion())
            .append(") for tenant `")
            .append(run.tenantId())
            .append("`.\n\nIts record and node log: `GET /api/v1/automation-runs/")
            .append(run.id())
            .append("`.");
    if (run.retryOf() != null) {
      details.append("\n\nA retry of run `").append(run.retryOf()).append("`.");
    }
    return details.toString();
  }
}
