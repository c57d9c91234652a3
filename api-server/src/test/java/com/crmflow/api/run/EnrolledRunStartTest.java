package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RunHistory;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * An enrolled run's workflow id names its contact's enrollment, and a new execution may start under
 * it once the last one closed: each start of an enrolled run, on the real Temporal server, starts
 * at most one execution for it, and never counts another run's execution as its own.
 */
class EnrolledRunStartTest extends ApiTest {

  @Autowired private RunStarter starter;
  @Autowired private RunWorkflowStart workflowStart;
  @Autowired private RunRepository runs;
  @Autowired private WorkflowClient temporal;

  private TenantClient tenant;
  private LocalHttpServer crm;
  private String contactId;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    crm = new LocalHttpServer();
    crm.answer("/sync", 200, "{\"ok\": true}");
    contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "dora@example.com", "first_name", "Dora"))
            .text("/contact/id");
  }

  @AfterEach
  void stopTheCrm() {
    crm.close();
  }

  /** An active sequence of these nodes, one after the other. */
  private String activeSequence(List<Map<String, Object>> nodes) {
    String id = sequence(tenant.api(), "Onboarding " + UUID.randomUUID());
    List<Map<String, Object>> edges =
        IntStream.range(1, nodes.size())
            .mapToObj(
                i ->
                    edge(
                        "e" + i,
                        (String) nodes.get(i - 1).get("id"),
                        (String) nodes.get(i).get("id")))
            .toList();
    assertThat(tenant.api().put("/api/sequences/" + id + "/canvas", canvas(nodes, edges)).status())
        .isEqualTo(200);
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return id;
  }

  private static Map<String, Object> sync(LocalHttpServer crm) {
    return node("sync", "http_request", http("POST", crm.url("/sync")));
  }

  /** Enrolls the contact; its run. */
  private AutomationRun enroll(String sequenceId) {
    ApiResponse enrolled =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_id", contactId));
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    UUID runId =
        UUID.fromString(
            tenant
                .api()
                .get("/api/v1/sequences/" + sequenceId + "/enrollments")
                .text("/enrollments/0/run_id"));
    return runs.find(tenant.id(), runId).orElseThrow();
  }

  private String latestExecution(AutomationRun run) {
    return RunHistory.describe(temporal, run.workflowId()).getExecution().getRunId();
  }

  private boolean markedStarted(AutomationRun run) {
    return jdbc.sql("select workflow_started from automation_run where id = :id")
        .param("id", run.id())
        .query(Boolean.class)
        .single();
  }

  /** The calls of /sync stay at this number for two seconds. */
  private void syncedExactly(int calls) {
    await()
        .during(Duration.ofSeconds(2))
        .atMost(Patience.EVENTUALLY)
        .untilAsserted(
            () -> assertThat(crm.received("/sync")).as("the calls of /sync").hasSize(calls));
  }

  @Test
  void aSecondStartOfAnEnrolledRunIsAnsweredWithTheExecutionItsFirstStartBeganAfterItClosed() {
    AutomationRun run = enroll(activeSequence(List.of(sync(crm))));
    assertThat(awaitRun(tenant.api(), run.id().toString()).get("status").asString())
        .isEqualTo("completed");
    String first = latestExecution(run);

    // the start from the pool, after the reconciler's has run the whole run
    WorkflowExecution again = workflowStart.start(run, null, false, null);

    assertThat(again.getRunId()).as("the execution the first start began").isEqualTo(first);
    assertThat(latestExecution(run)).isEqualTo(first);
    syncedExactly(1);
  }

  @Test
  void aReconcilerProbeOfAnEnrolledRunWhoseWorkflowRanMeanwhileStartsNoSecondExecution() {
    AutomationRun run = enroll(activeSequence(List.of(sync(crm))));
    assertThat(awaitRun(tenant.api(), run.id().toString()).get("status").asString())
        .isEqualTo("completed");
    String first = latestExecution(run);
    syncedExactly(1);

    // the run as a probe read it while its workflow still ran: running, not heard from, its
    // call not recorded yet; the workflow ends before the probe's start
    jdbc.sql(
            """
            update automation_run set status = 'running', workflow_started = false,
                completed_at = null
            where id = :id
            """)
        .param("id", run.id())
        .update();
    jdbc.sql("delete from run_node_log where run_id = :id and node_id = 'sync'")
        .param("id", run.id())
        .update();

    assertThat(starter.start(runs.find(tenant.id(), run.id()).orElseThrow())).isTrue();

    syncedExactly(1);
    assertThat(markedStarted(run)).as("marked started, so the reconciler leaves it").isTrue();
    assertThat(latestExecution(run)).as("still the execution that ran").isEqualTo(first);
  }

  @Test
  void anEnrolledRunIsNotMarkedStartedByTheExecutionOfAnotherRunOfItsEnrollment() {
    AutomationRun waiting =
        enroll(activeSequence(List.of(node("wait", "delay", Map.of("delayDays", 1)), sync(crm))));
    await().atMost(Patience.EVENTUALLY).until(() -> !runs.loggedNodes(waiting.id()).isEmpty());
    String theOthers = latestExecution(waiting);
    // another run of the same enrollment (a retry, say), stored but not started yet; created
    // "later" so that the reconciler leaves it to this test
    UUID next = UUID.randomUUID();
    jdbc.sql(
            """
            insert into automation_run (id, tenant_id, sequence_id, canvas_version,
                trigger_node_id, start_node_id, trigger_payload, workflow_id, enrollment_id,
                created_at)
            select :id, tenant_id, sequence_id, canvas_version, trigger_node_id, start_node_id,
                   trigger_payload, workflow_id, enrollment_id, now() + interval '1 hour'
            from automation_run where id = :waiting
            """)
        .param("id", next)
        .param("waiting", waiting.id())
        .update();
    AutomationRun nextRun = runs.find(tenant.id(), next).orElseThrow();

    assertThat(starter.start(nextRun))
        .as("not started: it starts once the other run's execution has closed")
        .isFalse();

    assertThat(markedStarted(nextRun)).isFalse();
    assertThat(latestExecution(nextRun)).as("no execution started for it").isEqualTo(theOthers);
  }
}
