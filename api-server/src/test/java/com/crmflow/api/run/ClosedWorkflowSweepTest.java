package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.api.temporal.ClosedWorkflowSweep;
import com.crmflow.shared.outbound.CauseHeader;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Runs whose workflow an operator closed in Temporal, outside the run's own recording. */
class ClosedWorkflowSweepTest extends ApiTest {

  @Autowired private WorkflowClient temporal;
  @Autowired private CauseHeader causeHeader;
  @Autowired private ClosedWorkflowSweep sweep;

  private LocalHttpServer peer;
  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  /** An active automation hook → wait a day → call; returns the hook's node id. */
  private String waitingFlow() {
    String hook = SequenceSupport.uniqueId("hook");
    SequenceSupport.activeAutomation(
        tenant.api(), Flows.waitADayThenCall(hook, peer.url("/later")));
    return hook;
  }

  /** Fires the hook and waits until the run waits on its delay; returns the run id. */
  private String waitingRun(String hook) {
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 2);
    return runId;
  }

  private JsonNode run(String runId) {
    return tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
  }

  /** Terminates the run's workflow as an operator would, and sweeps until the run has ended. */
  private void terminateAndSweep(String runId, String reason) {
    temporal.newUntypedWorkflowStub("run-" + runId).terminate(reason);
    sweepUntilEnded(runId);
  }

  /** Looks of the sweep until the run has left running (20 s at most). */
  private void sweepUntilEnded(String runId) {
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              sweep.checkNextBatches(Duration.ZERO);
              return !run(runId).get("status").asString().equals("running");
            });
  }

  /** Enough looks of a walk for lost workflows to look at every running run at least once. */
  private void walkEveryRunningRun() {
    sweep.lookForLostWorkflows();
    long running =
        jdbc.sql(
                "select count(*) from automation_run where status = 'running' and workflow_started")
            .query(Long.class)
            .single();
    for (long round = 0; round <= running / 100 + 1; round++) {
      sweep.checkNextBatches(Duration.ZERO);
    }
  }

  @Test
  void aRunWhoseWorkflowIsTerminatedInTemporalEndsFailedAndCanBeRetriedFromItsNode() {
    String runId = waitingRun(waitingFlow());
    double endedBefore = prometheus("crm_runs_closed_elsewhere_total");

    terminateAndSweep(runId, "stuck, said the operator");

    JsonNode ended = run(runId);
    String error = "The workflow was terminated in Temporal: stuck, said the operator";
    assertThat(ended.get("status").asString()).isEqualTo("failed");
    assertThat(ended.get("error").asString()).isEqualTo(error);
    assertThat(ended.get("completed_at").isNull()).isFalse();
    assertThat(ended.at("/node_log/0/status").asString()).isEqualTo("completed");
    JsonNode delay = ended.at("/node_log/1");
    assertThat(delay.get("nodeId").asString()).isEqualTo("wait");
    assertThat(delay.get("status").asString()).isEqualTo("failed");
    assertThat(delay.get("error").asString()).isEqualTo(error);
    assertThat(delay.get("completedAt").asString()).matches("\\d{4}-.*T.*\\.\\d{3}Z");
    assertThat(ended.get("node_log").size()).isEqualTo(2);
    // at least: the scheduled sweep of this shared service may end another test's run meanwhile
    assertThat(prometheus("crm_runs_closed_elsewhere_total"))
        .isGreaterThanOrEqualTo(endedBefore + 1);
    assertThat(peer.received("/later")).isEmpty();

    // the retry passes over the logged trigger and runs the node the workflow was stopped in
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    String retryId = retry.text("/run/id");
    SequenceSupport.awaitNodeLog(tenant.api(), retryId, 1);
    JsonNode retried = run(retryId);
    assertThat(retried.at("/node_log/0/nodeId").asString()).isEqualTo("wait");
    assertThat(retried.at("/node_log/0/status").asString()).isEqualTo("running");
    tenant.api().post("/api/v1/automation-runs/" + retryId + "/cancel", Map.of());
  }

  /**
   * hook → first → slow → after, beside hook → wait a day → later; terminated while slow's call is
   * in flight (no entry for it yet) and the delay waits. The retry walks again from the trigger,
   * passes over first, as logged, and runs slow, after and the delay.
   */
  @Test
  void aRetryOfARunTerminatedWithACallInFlightMakesNoLoggedCallAgainAndRunsTheRest() {
    String hook = SequenceSupport.uniqueId("hook");
    peer.hold("/slow-call");
    SequenceSupport.activeAutomation(
        tenant.api(),
        Flows.canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("first", "http_request", Flows.http("GET", peer.url("/first-call"))),
                node("slow", "http_request", Flows.http("GET", peer.url("/slow-call"))),
                node("after", "http_request", Flows.http("GET", peer.url("/after-call"))),
                node("wait", "delay", Map.of("delayDays", 1)),
                node("later", "http_request", Flows.http("GET", peer.url("/later")))),
            List.of(
                Flows.edge("e1", hook, "first"),
                Flows.edge("e2", "first", "slow"),
                Flows.edge("e3", "slow", "after"),
                Flows.edge("e4", hook, "wait"),
                Flows.edge("e5", "wait", "later"))));
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    await().until(() -> peer.received("/slow-call").size() == 1);
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 3); // hook, first, wait
    terminateAndSweep(runId, "stuck on slow");
    assertThat(run(runId).get("status").asString()).isEqualTo("failed");
    Map<String, String> logged = statusByNode(runId);
    assertThat(logged) // the call in flight has no entry
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(hook, "completed", "first", "completed", "wait", "failed"));

    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    String retryId = retry.text("/run/id");
    assertThat(retry.text("/run/start_node_id")).isEqualTo(hook);
    await().until(() -> peer.received("/slow-call").size() == 2);
    peer.release("/slow-call");
    await().until(() -> "completed".equals(statusByNode(retryId).get("after")));
    assertThat(statusByNode(retryId))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("slow", "completed", "after", "completed", "wait", "running"));
    assertThat(peer.received("/first-call")).hasSize(1); // what completed is not called again
    // the retry's own calls, by their Idempotency-Key: the terminated workflow's worker may still
    // finish the local activity it was in and go on for a moment (see the README)
    assertThat(peer.received("/after-call"))
        .filteredOn(
            call ->
                causeHeader
                    .idempotencyKey(tenant.id(), retryId + ":after")
                    .equals(call.header("Idempotency-Key")))
        .hasSize(1);
    assertThat(peer.received("/later")).isEmpty();
    tenant.api().post("/api/v1/automation-runs/" + retryId + "/cancel", Map.of());
  }

  private Map<String, String> statusByNode(String runId) {
    Map<String, String> statuses = new HashMap<>();
    run(runId)
        .get("node_log")
        .forEach(e -> statuses.put(e.get("nodeId").asString(), e.get("status").asString()));
    return statuses;
  }

  /** Fires the hook and waits until its run has ended; returns the run id. */
  private String endedRun(String hook, String status) {
    String runId = SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
    await().until(() -> run(runId).get("status").asString().equals(status));
    return runId;
  }

  /** As if the run's end were still on its way to the database. */
  private void markRunning(String runId) {
    jdbc.sql("update automation_run set status = 'running', completed_at = null where id = :id")
        .param("id", UUID.fromString(runId))
        .update();
  }

  @Test
  void aWorkflowCancelledInTemporalWithoutItsRecordEndsItsRunCancelled() {
    String runId = waitingRun(waitingFlow());
    temporal.newUntypedWorkflowStub("run-" + runId).cancel();
    await().until(() -> run(runId).get("status").asString().equals("cancelled"));
    markRunning(runId);

    sweepUntilEnded(runId);

    JsonNode ended = run(runId);
    assertThat(ended.get("status").asString()).isEqualTo("cancelled");
    assertThat(ended.get("error").isNull()).isTrue();
    assertThat(ended.get("completed_at").isNull()).isFalse();
  }

  @Test
  void aRunWhoseWorkflowFailedWithTheRunsOwnFailureEndsFailedWithTheRunsError() {
    peer.answer("/refused", 404, "{}");
    String hook = SequenceSupport.uniqueId("refused");
    SequenceSupport.activeAutomation(
        tenant.api(),
        chain(
            hook,
            node("call", "http_request", Map.of("method", "GET", "url", peer.url("/refused")))));
    String runId = endedRun(hook, "failed");
    String error = run(runId).get("error").asString();
    assertThat(error).startsWith("node call (http_request) failed: ");
    // the workflow fails with the run's failure once the run's end is recorded: the Temporal UI's
    // status says what the run says
    await()
        .until(
            () -> temporal.newUntypedWorkflowStub("run-" + runId).describe().getStatus(),
            status -> status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_FAILED);
    markRunning(runId);
    double endedBefore = prometheus("crm_runs_closed_elsewhere_total");

    sweepUntilEnded(runId);

    JsonNode ended = run(runId);
    assertThat(ended.get("status").asString()).isEqualTo("failed");
    assertThat(ended.get("error").asString())
        .as("the run's own error, not a workflow stopped from outside")
        .isEqualTo(error);
    assertThat(prometheus("crm_runs_closed_elsewhere_total")).isEqualTo(endedBefore + 1);
  }

  @Test
  void aRunWhoseWorkflowTemporalDoesNotKnowEndsFailedSayingItsStateIsGone() {
    String hook = waitingFlow();
    // a workflow Temporal does not know (its database was reset, say)
    String forgotten = waitingRun(hook);
    temporal.newUntypedWorkflowStub("run-" + forgotten).cancel();
    await().until(() -> run(forgotten).get("status").asString().equals("cancelled"));
    markRunning(forgotten);
    jdbc.sql("update automation_run set workflow_id = 'run-forgotten-' || id where id = :id")
        .param("id", UUID.fromString(forgotten))
        .update();

    walkEveryRunningRun();

    JsonNode ended = run(forgotten);
    assertThat(ended.get("status").asString()).isEqualTo("failed");
    assertThat(ended.get("error").asString())
        .isEqualTo(
            "Temporal has no workflow for it any more: its state was lost or removed (retry the"
                + " run to go on from its node log)");
  }

  @Test
  void runsWhoseWorkflowRunsOrCompletedAreLeftRunning() {
    String hook = waitingFlow();
    String waiting = waitingRun(hook);
    // a workflow that completed, its run's end not written yet
    String quickHook = SequenceSupport.uniqueId("quick");
    SequenceSupport.activeAutomation(
        tenant.api(),
        chain(
            quickHook,
            node("call", "http_request", Map.of("method", "GET", "url", peer.url("/now")))));
    String completing = endedRun(quickHook, "completed");
    markRunning(completing);

    walkEveryRunningRun();

    for (String runId : new String[] {waiting, completing}) {
      JsonNode run = run(runId);
      assertThat(run.get("status").asString()).as(runId).isEqualTo("running");
      assertThat(run.get("error").isNull()).as(runId).isTrue();
    }
    assertThat(run(waiting).at("/node_log/1/status").asString()).isEqualTo("running");
    temporal.newUntypedWorkflowStub("run-" + waiting).cancel();
  }
}
