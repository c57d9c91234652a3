package com.crmflow.api.run;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED;
import static io.temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.workflow.CrmSearchAttributes;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.DefaultDataConverter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Trigger → workflow → run record, over HTTP, with a real HTTP peer on loopback. */
class AutomationRunApiTest extends ApiTest {

  @Autowired private WorkflowClient temporal;
  @Autowired private CauseHeader causeHeader;
  @Autowired private MeterRegistry meters;

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

  private String activeAutomation(Map<String, Object> canvas) {
    String seq = SequenceSupport.automation(tenant.api(), "Flow " + UUID.randomUUID());
    ApiResponse saved = tenant.api().put("/api/sequences/" + seq + "/canvas", canvas);
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return seq;
  }

  private ApiResponse fire(String nodeId, Object body) {
    return anonymous().post("/api/webhooks/automation/" + tenant.id() + "/" + nodeId, body);
  }

  private JsonNode awaitRun(String runId) {
    JsonNode[] run = new JsonNode[1];
    await()
        .atMost(Patience.EVENTUALLY)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              run[0] = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
              return !run[0].get("status").asString().equals("running");
            });
    return run[0];
  }

  @Test
  void aTriggerCallToANodeThatIsNotAWebhookTriggerGets422NamingItsType() {
    String hook = uniqueId("hook");
    String wait = uniqueId("wait");
    activeAutomation(
        chain(
            hook,
            node(wait, "delay", Map.of("delayDays", 1)),
            node("mail", "email", Map.of("subject", "Hello"))));

    ApiResponse delay = fire(wait, Map.of("n", 1));
    ApiResponse email = fire("mail", Map.of("n", 1));

    assertThat(delay.status()).as(delay.toString()).isEqualTo(422);
    assertThat(delay.text("/detail"))
        .isEqualTo("Node " + wait + " is a delay, not a webhook_trigger.");
    assertThat(email.status()).as(email.toString()).isEqualTo(422);
    assertThat(email.text("/detail")).isEqualTo("Node mail is a email, not a webhook_trigger.");
    // an id the tenant has nowhere, and another tenant's node, stay 404
    assertThat(fire(uniqueId("nowhere"), Map.of()).status()).isEqualTo(404);
    var other = newTenant();
    assertThat(
            anonymous()
                .post("/api/webhooks/automation/" + other.id() + "/" + wait, Map.of())
                .status())
        .isEqualTo(404);
    assertThat(runCount()).as("nothing was accepted").isZero();
  }

  @Test
  void aWebhookTriggerOfASequenceDoesNotFireAndGets422() {
    String hook = uniqueId("hook");
    String sequence = SequenceSupport.sequence(tenant.api(), "Onboarding " + hook);
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + sequence + "/canvas",
                chain(hook, node("mail", "email", Map.of("subject", "Hello"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    assertThat(
            tenant
                .api()
                .patch("/api/v1/sequences/" + sequence, Map.of("status", "active"))
                .status())
        .isEqualTo(200);

    ApiResponse fired = fire(hook, Map.of("n", 1));

    assertThat(fired.status()).as(fired.toString()).isEqualTo(422);
    assertThat(fired.text("/detail")).contains("belongs to a sequence, not an automation");
    assertThat(runCount()).as("nothing was accepted").isZero();
  }

  @Test
  void aTriggerPayloadWithANumberBeyondADoublesRangeIsRefusedNotStoredAsInfinity() {
    String hook = uniqueId("hook");
    triggerThenCall(hook, "POST", "/never");

    ApiResponse refused =
        anonymous()
            .send(
                "POST",
                "/api/webhooks/automation/" + tenant.id() + "/" + hook,
                "{\"order\": {\"total\": 1e400}}",
                "application/json");

    assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
    assertThat(refused.text("/errors/0/field")).isEqualTo("order.total");
    assertThat(runCount()).isZero();
    assertThat(peer.received("/never")).isEmpty();
  }

  private int runCount() {
    return jdbc.sql("select count(*) from automation_run where tenant_id = :t")
        .param("t", tenant.id())
        .query(Integer.class)
        .single();
  }

  /** An active automation {@code hook → call}, the call going to the peer; returns its id. */
  private String triggerThenCall(String hook, String method, String path) {
    return activeAutomation(
        chain(hook, node("call", "http_request", http(method, peer.url(path)))));
  }

  private String uniqueId(String base) {
    return base + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void templateVariablesFlowAcrossTwoHttpRequests() {
    String hook = uniqueId("hook");
    peer.answer("/first", 200, "{\"id\": 42, \"tags\": [\"a\", \"b\"]}");
    activeAutomation(
        chain(
            hook,
            node(
                "first",
                "http_request",
                http(
                    "POST",
                    peer.url("/first"),
                    "headers",
                    Map.of("X-Customer", "{{trigger.customer.name}}"),
                    "bodyTemplate",
                    "{\"name\": \"{{trigger.customer.name}}\", \"missing\": \"{{trigger.nope}}\"}")),
            node(
                "second",
                "http_request",
                http("GET", peer.url("/items/{{http_request_1.body.id}}?plan={{trigger.plan}}")))));

    ApiResponse accepted =
        fire(hook, Map.of("customer", Map.of("name", "Ada \"The\" Countess"), "plan", "pro"));
    assertThat(accepted.status()).isEqualTo(200);
    assertThat(accepted.at("/received").asBoolean()).isTrue();
    String runId = accepted.text("/runId");
    JsonNode run = awaitRun(runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    LocalHttpServer.Received first = peer.received("/first").get(0);
    assertThat(first.method()).isEqualTo("POST");
    assertThat(first.body())
        .isEqualTo("{\"name\": \"Ada \\\"The\\\" Countess\", \"missing\": \"\"}");
    assertThat(first.header("X-Customer")).isEqualTo("Ada \"The\" Countess");
    assertThat(first.header("Idempotency-Key"))
        .isEqualTo(causeHeader.idempotencyKey(tenant.id(), runId + ":first"));
    assertThat(peer.received("/items/42")).hasSize(1);

    assertThat(run.get("tenant_id").asString()).isEqualTo(tenant.id().toString());
    assertThat(run.get("trigger_node_id").asString()).isEqualTo(hook);
    assertThat(run.at("/trigger_payload/plan").asString()).isEqualTo("pro");
    assertThat(run.get("workflow_id").asString()).isEqualTo("run-" + runId);
    assertThat(run.get("completed_at").isNull()).isFalse();

    // what an operator finds in the Temporal UI for this run: search attributes, memo, summary
    // and named steps
    WorkflowStub workflow = temporal.newUntypedWorkflowStub("run-" + runId);
    // the run's record is written before its workflow's last task upserts the status it ends with
    var description =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                workflow::describe,
                described ->
                    "completed"
                        .equals(
                            described.getTypedSearchAttributes().get(CrmSearchAttributes.STATUS)));
    var attributes = description.getTypedSearchAttributes();
    assertThat(attributes.get(CrmSearchAttributes.TENANT_ID)).isEqualTo(tenant.id().toString());
    assertThat(attributes.get(CrmSearchAttributes.SEQUENCE_ID))
        .isEqualTo(run.get("sequence_id").asString());
    assertThat(attributes.get(CrmSearchAttributes.TRIGGER_KIND)).isEqualTo("webhook_trigger");
    assertThat(attributes.get(CrmSearchAttributes.STATUS)).isEqualTo("completed");
    String flowName =
        tenant
            .api()
            .get("/api/v1/sequences/" + run.get("sequence_id").asString())
            .text("/sequence/name");
    assertThat(description.getMemo("sequence_name", String.class)).isEqualTo(flowName);
    assertThat(description.getMemo("trigger", String.class)).isEqualTo("webhook_trigger");
    assertThat(description.getMemo("tenant_id", String.class)).isEqualTo(tenant.id().toString());
    assertThat(description.getMemo("run_id", String.class)).isEqualTo(runId);
    assertThat(description.getMemo("sequence_id", String.class))
        .isEqualTo(run.get("sequence_id").asString());
    assertThat(
            temporal.fetchHistory("run-" + runId).getEvents().stream()
                .filter(e -> e.getUserMetadata().hasSummary())
                .map(
                    e ->
                        DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
                            e.getUserMetadata().getSummary(), String.class, String.class)))
        .containsExactly(
            "Automation \"" + flowName + "\" · webhook_trigger " + hook + " · run " + runId,
            "http_request · http_request first", // summary = node type · node label
            "http_request · http_request second");
    // the input the start sent (written once, its size checked and sent as written) is the
    // run's input as the data converter writes it
    var input =
        temporal
            .fetchHistory("run-" + runId)
            .getEvents()
            .get(0)
            .getWorkflowExecutionStartedEventAttributes()
            .getInput();
    assertThat(input.getPayloadsCount()).isEqualTo(1);
    assertThat(input.getPayloads(0).getMetadataOrThrow("encoding").toStringUtf8())
        .isEqualTo("json/plain");
    RunInput started =
        DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
            input.getPayloads(0), RunInput.class, RunInput.class);
    assertThat(started.runId()).isEqualTo(runId);
    assertThat(started.tenantId()).isEqualTo(tenant.id().toString());
    assertThat(started.triggerPayload()).containsEntry("plan", "pro");
    assertThat(started.canvas().node("second")).isPresent();
    // local activities and the eager start: the whole run was one workflow task
    assertThat(
            temporal.fetchHistory("run-" + runId).getEvents().stream()
                .filter(HistoryEvent::hasWorkflowTaskCompletedEventAttributes)
                .count())
        .isEqualTo(1);
    JsonNode log = run.get("node_log");
    assertThat(log.valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "first", "second");
    JsonNode call = log.get(1);
    assertThat(call.get("nodeType").asString()).isEqualTo("http_request");
    assertThat(call.get("status").asString()).isEqualTo("completed");
    assertThat(call.at("/output/statusCode").asInt()).isEqualTo(200);
    assertThat(call.at("/output/body/id").asInt()).isEqualTo(42);
    assertThat(call.get("startedAt").asString())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(call.get("completedAt").asString())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    JsonNode trigger = log.get(0); // written by the trigger endpoint with the run row
    assertThat(trigger.get("nodeType").asString()).isEqualTo("webhook_trigger");
    assertThat(trigger.get("status").asString()).isEqualTo("completed");
    assertThat(trigger.get("startedAt").asString())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    assertThat(trigger.get("output").size()).isZero();
  }

  @Test
  void conditionFollowsOnlyTheTakenBranch() {
    String hook = uniqueId("hook");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "check",
                    "condition",
                    Map.of(
                        "field", "{{trigger.amount}}", "operator", "greater_than", "value", "100")),
                node("big", "http_request", http("POST", peer.url("/big"))),
                node("small", "http_request", http("POST", peer.url("/small")))),
            List.of(
                edge("e1", hook, "check"),
                edge("e2", "check", "big", "true"),
                edge("e3", "check", "small", "false"))));

    JsonNode large = awaitRun(fire(hook, Map.of("amount", 250)).text("/runId"));
    JsonNode little = awaitRun(fire(hook, Map.of("amount", 7.5)).text("/runId"));

    assertThat(large.get("status").asString()).isEqualTo("completed");
    assertThat(large.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "check", "big");
    assertThat(large.at("/node_log/1/output/result").asBoolean()).isTrue();
    assertThat(little.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "check", "small");
    assertThat(peer.received("/big")).hasSize(1);
    assertThat(peer.received("/small")).hasSize(1);
  }

  @Test
  void parallelBranchesJoinOnce() {
    String hook = uniqueId("hook");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("left", "http_request", http("GET", peer.url("/left"))),
                node("right", "http_request", http("GET", peer.url("/right"))),
                node(
                    "join",
                    "http_request",
                    http(
                        "POST",
                        peer.url("/join"),
                        "bodyTemplate",
                        "{\"a\": \"{{http_request_1.statusCode}}\", \"b\": \"{{http_request_2.statusCode}}\"}"))),
            List.of(
                edge("e1", hook, "left"),
                edge("e2", hook, "right"),
                edge("e3", "left", "join"),
                edge("e4", "right", "join"))));

    JsonNode run = awaitRun(fire(hook, Map.of()).text("/runId"));
    assertThat(run.get("status").asString()).isEqualTo("completed");
    assertThat(peer.received("/join")).hasSize(1);
    assertThat(peer.received("/join").get(0).body()).isEqualTo("{\"a\": \"200\", \"b\": \"200\"}");
    List<String> order =
        run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()).toList();
    assertThat(order).hasSize(4);
    assertThat(order.get(3)).isEqualTo("join");
    assertThat(order.subList(1, 3)).containsExactlyInAnyOrder("left", "right");
  }

  @Test
  void joinAfterAConditionWaitsOnlyForTheTakenBranch() {
    String hook = uniqueId("hook");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "check",
                    "condition",
                    Map.of("field", "{{trigger.vip}}", "operator", "equals", "value", "true")),
                node("vip", "http_request", http("GET", peer.url("/vip"))),
                node("normal", "http_request", http("GET", peer.url("/normal"))),
                node("after", "http_request", http("GET", peer.url("/after")))),
            List.of(
                edge("e1", hook, "check"),
                edge("e2", "check", "vip", "true"),
                edge("e3", "check", "normal", "false"),
                edge("e4", "vip", "after"),
                edge("e5", "normal", "after"))));
    JsonNode run = awaitRun(fire(hook, Map.of("vip", true)).text("/runId"));
    assertThat(run.get("status").asString()).isEqualTo("completed");
    assertThat(run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "check", "vip", "after");
  }

  @Test
  void dataTransformMapFilterAndMerge() {
    String hook = uniqueId("hook");
    peer.answer(
        "/list",
        200,
        "{\"items\": [{\"name\": \"a\", \"status\": \"active\"}, {\"name\": \"b\", \"status\": \"gone\"}], \"page\": 1}");
    activeAutomation(
        chain(
            hook,
            node("list", "http_request", http("GET", peer.url("/list"))),
            node(
                "only",
                "data_transform",
                Map.of(
                    "transformType",
                    "filter",
                    "mappings",
                    Map.of(
                        "source",
                        "http_request_1.body.items",
                        "field",
                        "status",
                        "operator",
                        "equals",
                        "value",
                        "active"))),
            node(
                "shape",
                "data_transform",
                Map.of(
                    "transformType",
                    "map",
                    "mappings",
                    Map.of(
                        "first",
                        "{{data_transform_1.items.0.name}}",
                        "count",
                        "{{data_transform_1.count}}"))),
            node(
                "all",
                "data_transform",
                Map.of(
                    "transformType",
                    "merge",
                    "mappings",
                    Map.of("sources", List.of("trigger", "data_transform_2")))),
            node(
                "send",
                "http_request",
                http(
                    "POST",
                    peer.url("/out"),
                    "bodyTemplate",
                    "{\"merged\": \"{{data_transform_3}}\"}"))));

    JsonNode run = awaitRun(fire(hook, Map.of("source", "crm")).text("/runId"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log/2/output/count").asInt()).isEqualTo(1);
    assertThat(run.at("/node_log/2/output/items/0/name").asString()).isEqualTo("a");
    assertThat(run.at("/node_log/3/output/first").asString()).isEqualTo("a");
    assertThat(run.at("/node_log/3/output/count").asString()).isEqualTo("1");
    assertThat(run.at("/node_log/4/output/source").asString()).isEqualTo("crm");
    assertThat(run.at("/node_log/4/output/first").asString()).isEqualTo("a");
    assertThat(peer.received("/out").get(0).body()).contains("\\\"first\\\":\\\"a\\\"");
  }

  @Test
  void aFailingNodeFailsTheRunUnlessItContinuesOnFailure() {
    String hook = uniqueId("hook");
    peer.answer("/missing", 404, "{\"error\": \"no such thing\"}");
    activeAutomation(
        chain(
            hook,
            node("bad", "http_request", http("GET", peer.url("/missing"))),
            node("never", "http_request", http("GET", peer.url("/never")))));
    JsonNode failed = awaitRun(fire(hook, Map.of()).text("/runId"));
    assertThat(failed.get("status").asString()).isEqualTo("failed");
    assertThat(failed.get("error").asString()).contains("bad").contains("HTTP 404");
    assertThat(failed.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(failed.at("/node_log/1/error").asString()).contains("404");
    assertThat(peer.received("/missing")).hasSize(1); // a 404 is not retried
    assertThat(peer.received("/never")).isEmpty();

    String tolerant = uniqueId("hook");
    activeAutomation(
        chain(
            tolerant,
            node(
                "bad",
                "http_request",
                http("GET", peer.url("/missing"), "continueOnFailure", true)),
            node("after", "http_request", http("GET", peer.url("/after")))));
    JsonNode completed = awaitRun(fire(tolerant, Map.of()).text("/runId"));
    assertThat(completed.get("status").asString()).isEqualTo("completed");
    assertThat(completed.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(peer.received("/after")).hasSize(1);
  }

  @Test
  void aFailureEndsTheRunAtOnceAndTheDelayWaitingBesideItEndsSkipped() {
    String hook = uniqueId("hook");
    peer.answer("/fails-beside", 404, "{\"error\": \"no such thing\"}");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("wait", "delay", Map.of("delayDays", 1)),
                node("bad", "http_request", http("GET", peer.url("/fails-beside")))),
            List.of(edge("e1", hook, "wait"), edge("e2", hook, "bad"))));
    String runId = fire(hook, Map.of()).text("/runId");
    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("failed");

    Map<String, JsonNode> byNode = byNode(runId);
    assertThat(byNode.get("bad").get("status").asString()).isEqualTo("failed");
    JsonNode cut = byNode.get("wait");
    assertThat(cut.get("status").asString()).isEqualTo("skipped");
    assertThat(cut.at("/output/skipped").asString())
        .isEqualTo("the run failed before this node finished");
    assertThat(cut.get("completedAt").asString())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
  }

  /**
   * hook → bad (404 until fixed), hook → slow (held) → after, hook → wait a day → tail. The run
   * fails once the call in flight has finished; its retry runs bad, after and the delay (waking
   * when it would have), and not the slow call or the trigger again. (That tail runs after a
   * retried delay: InterpreterDurabilityTest.aRetriedDelayWakesWhenItWouldHaveInTheFailedRun.)
   */
  @Test
  void aRetryRunsEveryNodeTheFailureLeftUnrunAndNothingThatRan() {
    String hook = uniqueId("hook");
    peer.answer("/unrun-bad", 404, "{\"error\": \"not yet\"}");
    peer.answer("/unrun-slow", 200, "{\"n\": 5}");
    peer.hold("/unrun-slow");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("bad", "http_request", http("GET", peer.url("/unrun-bad"))),
                node("slow", "http_request", http("GET", peer.url("/unrun-slow"))),
                node("after", "http_request", http("GET", peer.url("/unrun-after"))),
                node("wait", "delay", Map.of("delayDays", 1)),
                node("tail", "http_request", http("GET", peer.url("/unrun-tail")))),
            List.of(
                edge("e1", hook, "bad"),
                edge("e2", hook, "slow"),
                edge("e3", "slow", "after"),
                edge("e4", hook, "wait"),
                edge("e5", "wait", "tail"))));
    String runId = fire(hook, Map.of()).text("/runId");

    // bad's failure shows while the run waits for the call still in flight
    await().atMost(Patience.EVENTUALLY).until(() -> byNode(runId).containsKey("bad"));
    JsonNode waiting = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(waiting.get("status").asString()).isEqualTo("running");
    assertThat(byNode(runId).get("bad").get("status").asString()).isEqualTo("failed");
    peer.release("/unrun-slow");
    JsonNode failed = awaitRun(runId);
    assertThat(failed.get("status").asString()).isEqualTo("failed");
    assertThat(failed.get("error").asString()).startsWith("node bad (http_request) failed");
    Map<String, JsonNode> logged = byNode(runId);
    assertThat(logged).containsOnlyKeys(hook, "bad", "slow", "after", "wait");
    assertThat(logged.get("slow").get("status").asString()).isEqualTo("completed");
    assertThat(logged.get("after").at("/output/skipped").asString())
        .isEqualTo("the run failed before this node started");
    assertThat(logged.get("wait").at("/output/skipped").asString())
        .isEqualTo("the run failed before this node finished");
    assertThat(peer.received("/unrun-after")).isEmpty();

    peer.answer("/unrun-bad", 200, "{}");
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    assertThat(retry.text("/run/start_node_id")).isEqualTo("bad");
    String retryId = retry.text("/run/id");
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> byNode(retryId).keySet().containsAll(List.of("bad", "after", "wait")));
    Map<String, JsonNode> rerun = byNode(retryId);
    assertThat(rerun).containsOnlyKeys("bad", "after", "wait"); // tail follows the delay
    assertThat(rerun.get("bad").get("status").asString()).isEqualTo("completed");
    assertThat(rerun.get("after").get("status").asString()).isEqualTo("completed");
    // the delay waits until it would have woken in the failed run, not a day from the retry
    assertThat(rerun.get("wait").get("status").asString()).isEqualTo("running");
    assertThat(rerun.get("wait").at("/output/until").asString())
        .isEqualTo(logged.get("wait").at("/output/until").asString());
    assertThat(peer.received("/unrun-bad")).hasSize(2);
    assertThat(peer.received("/unrun-slow")).hasSize(1); // it ran: not again
    assertThat(peer.received("/unrun-after")).hasSize(1);
    ApiResponse cancelled =
        tenant.api().post("/api/v1/automation-runs/" + retryId + "/cancel", Map.of());
    assertThat(cancelled.text("/run/status")).isEqualTo("cancelled");
  }

  /**
   * hook → bad → next, beside hook → other: bad started first, so it was http_request_1 and other
   * http_request_2. The retry runs bad as http_request_1 again, so next's variable still names bad
   * (were other to take the 1 in the retry, next would post other's output).
   */
  @Test
  void aRetryNumbersTheNodesItRunsAgainAsTheFailedRunDid() {
    String hook = uniqueId("hook");
    peer.answer("/numbered-bad", 404, "{\"error\": \"not yet\"}");
    peer.answer("/numbered-other", 200, "{\"x\": \"from other\"}");
    activeAutomation(
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node("bad", "http_request", http("GET", peer.url("/numbered-bad"))),
                node(
                    "next",
                    "http_request",
                    http(
                        "POST",
                        peer.url("/numbered-next"),
                        "bodyTemplate",
                        "{\"x\": \"{{http_request_1.body.x}}\"}")),
                node("other", "http_request", http("GET", peer.url("/numbered-other")))),
            List.of(
                edge("e1", hook, "bad"), edge("e2", "bad", "next"), edge("e3", hook, "other"))));
    String runId = fire(hook, Map.of()).text("/runId");
    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("failed");
    assertThat(byNode(runId).get("other").get("status").asString()).isEqualTo("completed");

    peer.answer("/numbered-bad", 200, "{\"x\": \"from bad\"}");
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(awaitRun(retry.text("/run/id")).get("status").asString()).isEqualTo("completed");
    assertThat(peer.received("/numbered-next"))
        .extracting(LocalHttpServer.Received::body)
        .containsExactly("{\"x\": \"from bad\"}");
    assertThat(peer.received("/numbered-other")).hasSize(1);
  }

  /** The run's node log by node id. */
  private Map<String, JsonNode> byNode(String runId) {
    Map<String, JsonNode> byNode = new HashMap<>();
    tenant
        .api()
        .get("/api/v1/automation-runs/" + runId)
        .at("/run/node_log")
        .forEach(entry -> byNode.put(entry.get("nodeId").asString(), entry));
    return byNode;
  }

  @Test
  void emailWithoutRecipientFailsTheRunNamingTheNode() {
    String hook = uniqueId("hook");
    activeAutomation(chain(hook, node("mail", "email", Map.of("subject", "Hi"))));
    JsonNode run = awaitRun(fire(hook, Map.of()).text("/runId"));
    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString())
        .isEqualTo(
            "node mail (email) failed: the email has no recipient: no `to` and no contact with an"
                + " email");
    assertThat(run.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(run.at("/node_log/1/nodeId").asString()).isEqualTo("mail");
  }

  @Test
  void cancelStopsAWaitingRun() {
    String hook = uniqueId("hook");
    activeAutomation(Flows.waitADayThenCall(hook, peer.url("/later")));
    String runId = fire(hook, Map.of()).text("/runId");
    SequenceSupport.awaitNodeLog(tenant.api(), runId, 2); // waiting on the delay
    JsonNode waiting = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(waiting.get("status").asString()).isEqualTo("running");
    assertThat(waiting.at("/node_log/1/status").asString()).isEqualTo("running");

    ApiResponse cancelled =
        tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.text("/run/status")).isEqualTo("cancelled");
    assertThat(tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
        .isEqualTo(409);
    // the delay it waited on ends skipped in the log: nothing of an ended run reads running
    JsonNode cancelledRun = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(cancelledRun.at("/node_log/1/status").asString()).isEqualTo("skipped");
    assertThat(cancelledRun.at("/node_log/1/output/skipped").asString())
        .isEqualTo("the run was cancelled before this node finished");
    assertThat(cancelledRun.at("/node_log/1/output/until").asString()).isNotEmpty();
    // the workflow itself is cancelled, not only the run record
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                temporal.fetchHistory("run-" + runId).getEvents().stream()
                    .anyMatch(HistoryEvent::hasWorkflowExecutionCanceledEventAttributes));
    assertThat(peer.received("/later")).isEmpty();
  }

  /**
   * An active automation hook → lookup → flaky: the lookup answers {"id": 7}, which flaky (400
   * until told otherwise) posts on as {"id": "{{http_request_1.body.id}}"}.
   */
  private void lookupThenFlaky(String hook, String lookupPath, String flakyPath) {
    peer.answer(lookupPath, 200, "{\"id\": 7}");
    peer.answer(flakyPath, 400, "{\"error\": \"bad\"}");
    activeAutomation(
        chain(
            hook,
            node("lookup", "http_request", http("GET", peer.url(lookupPath))),
            node(
                "flaky",
                "http_request",
                http(
                    "POST",
                    peer.url(flakyPath),
                    "bodyTemplate",
                    "{\"id\": \"{{http_request_1.body.id}}\"}"))));
  }

  @Test
  void retryRunsFromTheFailedNodeWithEarlierOutputs() {
    String hook = uniqueId("hook");
    lookupThenFlaky(hook, "/lookup", "/flaky");
    String runId = fire(hook, Map.of()).text("/runId");
    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("failed");

    peer.answer("/flaky", 200, "{\"ok\": true}");
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    assertThat(retry.text("/run/retry_of")).isEqualTo(runId);
    JsonNode rerun = awaitRun(retry.text("/run/id"));
    assertThat(rerun.get("status").asString()).isEqualTo("completed");
    assertThat(rerun.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly("flaky");
    assertThat(peer.received("/lookup")).hasSize(1); // not called again
    assertThat(peer.received("/flaky").get(1).body()).isEqualTo("{\"id\": \"7\"}");
    assertThat(
            tenant
                .api()
                .post("/api/v1/automation-runs/" + rerun.get("id").asString() + "/retry", Map.of())
                .status())
        .isEqualTo(409);
  }

  /**
   * hook → large1 … large5, each answering {"n": 7, "blob": 900 kB}, → flaky (400 until told
   * otherwise), which posts {@code body}; returns the automation's sequence id.
   */
  private String fiveLargeAnswersThenFlaky(String hook, String prefix, String body) {
    peer.answer(prefix + "/large", 200, "{\"n\": 7, \"blob\": \"" + "x".repeat(900_000) + "\"}");
    peer.answer(prefix + "/flaky", 400, "{\"error\": \"bad\"}");
    List<Map<String, Object>> steps = new java.util.ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      steps.add(node("large" + i, "http_request", http("GET", peer.url(prefix + "/large"))));
    }
    steps.add(
        node(
            "flaky",
            "http_request",
            http("POST", peer.url(prefix + "/flaky"), "bodyTemplate", body)));
    @SuppressWarnings("unchecked")
    Map<String, Object>[] chain = steps.toArray(new Map[0]);
    return activeAutomation(chain(hook, chain));
  }

  /**
   * A retry carries the outputs of the nodes before it in its workflow's input, which a Temporal
   * server takes only up to 2 MB (the embedded one 4 MB): five answers of 900 kB do not fit. It
   * carries on only the outputs the canvas reads, and when even those are too large it is refused
   * and nothing is made.
   */
  @Test
  void aRetryCarriesOnOnlyTheOutputsTheCanvasReadsAndIsRefusedWhenThoseAreTooLarge() {
    String hook = uniqueId("hook");
    fiveLargeAnswersThenFlaky(hook, "/reads-one", "{\"n\": \"{{http_request_1.body.n}}\"}");
    String runId = fire(hook, Map.of()).text("/runId");
    JsonNode failed = awaitRun(runId);
    assertThat(failed.get("status").asString()).as(failed.toString()).isEqualTo("failed");
    assertThat(failed.at("/node_log/5/output/body/blob").asString()).hasSize(900_000);

    peer.answer("/reads-one/flaky", 200, "{\"ok\": true}");
    ApiResponse retry = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
    JsonNode rerun = awaitRun(retry.text("/run/id"));
    assertThat(rerun.get("status").asString()).as(rerun.toString()).isEqualTo("completed");
    assertThat(peer.received("/reads-one/large")).hasSize(5);
    assertThat(peer.received("/reads-one/flaky").get(1).body()).isEqualTo("{\"n\": \"7\"}");
    HistoryEvent started =
        temporal.fetchHistory(rerun.get("workflow_id").asString()).getEvents().get(0);
    assertThat(started.getSerializedSize())
        .as("only http_request_1's answer is carried on, not all five")
        .isBetween(900_000, 1_000_000);

    String readsAll = uniqueId("hook");
    StringBuilder body = new StringBuilder("{");
    for (int i = 1; i <= 5; i++) {
      body.append(i == 1 ? "" : ", ")
          .append("\"b" + i + "\": \"{{http_request_" + i + ".body.blob}}\"");
    }
    String seq = fiveLargeAnswersThenFlaky(readsAll, "/reads-all", body.append("}").toString());
    String allId = fire(readsAll, Map.of()).text("/runId");
    assertThat(awaitRun(allId).get("status").asString()).isEqualTo("failed");
    ApiResponse refused =
        tenant.api().post("/api/v1/automation-runs/" + allId + "/retry", Map.of());
    assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
    assertThat(refused.text("/detail"))
        .contains("cannot be retried", "outputs", "over the 1572864 bytes");
    assertThat(tenant.api().get("/api/v1/automation-runs?sequence_id=" + seq).at("/total").asInt())
        .isEqualTo(1);
  }

  @Test
  void aRetryOfARetrySeesTheOutputsOfTheWholeChainAndARunIsRetriedOnce() {
    String hook = uniqueId("hook");
    lookupThenFlaky(hook, "/lookup-twice", "/flaky-twice");
    String runId = fire(hook, Map.of()).text("/runId");
    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("failed");
    String firstRetry =
        tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of()).text("/run/id");
    assertThat(awaitRun(firstRetry).get("status").asString()).isEqualTo("failed");

    // the failed run has its retry: a second one would run the node again beside it
    ApiResponse again = tenant.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of());
    assertThat(again.status()).as(again.toString()).isEqualTo(409);
    assertThat(again.text("/detail")).contains("retried already", firstRetry);

    peer.answer("/flaky-twice", 200, "{\"ok\": true}");
    // two retries of the retry asked for at once: one is made, the other names it
    List<CompletableFuture<ApiResponse>> both =
        List.of(1, 2).stream()
            .map(
                i ->
                    CompletableFuture.supplyAsync(
                        () ->
                            tenant
                                .api()
                                .post(
                                    "/api/v1/automation-runs/" + firstRetry + "/retry", Map.of())))
            .toList();
    List<ApiResponse> answers = both.stream().map(CompletableFuture::join).toList();
    assertThat(answers).extracting(ApiResponse::status).containsExactlyInAnyOrder(201, 409);
    ApiResponse secondRetry = answers.stream().filter(a -> a.status() == 201).findFirst().get();
    assertThat(answers.stream().filter(a -> a.status() == 409).findFirst().get().text("/detail"))
        .contains(secondRetry.text("/run/id"));
    JsonNode rerun = awaitRun(secondRetry.text("/run/id"));
    assertThat(rerun.get("status").asString()).isEqualTo("completed");
    assertThat(peer.received("/lookup-twice")).hasSize(1);
    // each call saw the lookup's output, which only the first run has in its log
    assertThat(peer.received("/flaky-twice").stream().map(LocalHttpServer.Received::body))
        .containsExactly("{\"id\": \"7\"}", "{\"id\": \"7\"}", "{\"id\": \"7\"}");
  }

  @Test
  void idempotencyKeyReturnsTheFirstRun() {
    String hook = uniqueId("hook");
    triggerThenCall(hook, "GET", "/once");
    var delivery = anonymous().withHeader("Idempotency-Key", "delivery-1");
    Timer letIn = meters.get("crm.trigger.admission.wait").timer();
    long letInBefore = letIn.count();
    String first =
        delivery
            .post("/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("n", 1))
            .text("/runId");
    String second =
        delivery
            .post("/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("n", 1))
            .text("/runId");
    assertThat(second).isEqualTo(first);
    assertThat(letIn.count() - letInBefore)
        .as("the admission let the first delivery in; the repeat never reached it")
        .isEqualTo(1);
    JsonNode run = awaitRun(first);
    assertThat(peer.received("/once")).hasSize(1);
    assertThat(tenant.api().get("/api/v1/automation-runs").at("/total").asInt()).isEqualTo(1);
    // the trigger's entry was written once, with the run row, and the workflow did not repeat it
    assertThat(run.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "call");
    assertThat(
            jdbc.sql("select seq from run_node_log where run_id = ?::uuid order by seq")
                .param(first)
                .query(Integer.class)
                .list())
        .containsExactly(1, 2);
  }

  @Test
  void everyTriggerErrorStatus() {
    String hook = uniqueId("hook");
    String secretHook = uniqueId("secret");
    String seq = activeAutomation(chain(hook, node("w", "delay", Map.of("delayDays", 1))));
    activeAutomation(
        canvas(
            List.of(
                node(secretHook, "webhook_trigger", Map.of("secretToken", "s3cret")),
                node("w", "delay", Map.of("delayDays", 1))),
            List.of(edge("e1", secretHook, "w"))));
    String schedule = uniqueId("schedule");
    activeAutomation(
        canvas(
            List.of(
                node(
                    schedule,
                    "schedule_trigger",
                    Map.of("scheduleType", "daily", "time", "09:00", "timezone", "UTC")),
                node("w", "delay", Map.of("delayDays", 1))),
            List.of(edge("e1", schedule, "w"))));
    String base = "/api/webhooks/automation/" + tenant.id() + "/";

    assertThat(anonymous().send("POST", base + hook, "{\"a\": ", "application/json").status())
        .isEqualTo(400);
    assertThat(anonymous().send("POST", base + hook, "a=1", "text/plain").status()).isEqualTo(415);
    // a NUL cannot be stored with the run, so the delivery is refused, not accepted and lost
    ApiResponse nul =
        anonymous()
            .send("POST", base + hook, "{\"a\": [\"ok\", \"x\\u0000\"]}", "application/json");
    assertThat(nul.status()).as(nul.toString()).isEqualTo(400);
    assertThat(nul.text("/errors/0/field")).isEqualTo("a.1");
    assertThat(nul.text("/errors/0/message")).contains("NUL character");
    // the same characters as text are fine
    String literal = "{\"a\": \"\\\\u0000\"}";
    assertThat(anonymous().send("POST", base + hook, literal, "application/json").status())
        .isEqualTo(200);
    assertThat(
            anonymous()
                .post("/api/webhooks/automation/" + UUID.randomUUID() + "/" + hook, Map.of())
                .status())
        .isEqualTo(404);
    assertThat(anonymous().post("/api/webhooks/automation/not-a-uuid/" + hook, Map.of()).status())
        .isEqualTo(404);
    assertThat(anonymous().post(base + "no-such-node", Map.of()).status()).isEqualTo(404);
    var other = newTenant();
    assertThat(
            anonymous()
                .post("/api/webhooks/automation/" + other.id() + "/" + hook, Map.of())
                .status())
        .isEqualTo(404);
    assertThat(anonymous().post(base + schedule, Map.of()).status()).isEqualTo(422);
    assertThat(anonymous().post(base + secretHook, Map.of()).status()).isEqualTo(401);
    assertThat(
            anonymous()
                .withHeader("X-Webhook-Secret", "wrong")
                .post(base + secretHook, Map.of())
                .status())
        .isEqualTo(401);
    assertThat(
            anonymous()
                .withHeader("X-Webhook-Secret", "s3cret")
                .post(base + secretHook, Map.of())
                .status())
        .isEqualTo(200);
    String huge = "{\"x\": \"" + "y".repeat(1_100_000) + "\"}";
    assertThat(anonymous().send("POST", base + hook, huge, "application/json").status())
        .isEqualTo(413);
    tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "paused"));
    ApiResponse paused = anonymous().post(base + hook, Map.of());
    assertThat(paused.status()).isEqualTo(422);
    assertThat(paused.contentType()).startsWith("application/problem+json");

    assertThat(tenant.api().get("/api/v1/automation-runs").at("/total").asInt())
        .isEqualTo(2); // the literal backslash and the good secret
  }

  @Test
  void aNonObjectBodyIsTheTriggersValueEvenNull() {
    String hook = uniqueId("hook");
    activeAutomation(
        chain(
            hook,
            node(
                "call",
                "http_request",
                http(
                    "POST",
                    peer.url("/value"),
                    "bodyTemplate",
                    "{\"value\": \"{{trigger.value}}\"}"))));
    String trigger = "/api/webhooks/automation/" + tenant.id() + "/" + hook;

    for (String body : List.of("null", "42", "\"text\"")) {
      ApiResponse accepted = anonymous().send("POST", trigger, body, "application/json");
      assertThat(accepted.status()).as(body + ": " + accepted).isEqualTo(200);
      JsonNode run = awaitRun(accepted.text("/runId"));
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(run.get("trigger_payload").toString()).isEqualTo(body);
    }
    assertThat(peer.received("/value").stream().map(LocalHttpServer.Received::body))
        .containsExactly("{\"value\": \"\"}", "{\"value\": \"42\"}", "{\"value\": \"text\"}");
  }

  /** Trigger targets are remembered between calls: a change must still count from the next call. */
  @Test
  void triggerCallsFollowTheAutomationAsItIsNow() {
    String hook = uniqueId("hook");
    String seq = activeAutomation(waitAfter(hook, Map.of()));
    String first = fire(hook, Map.of("n", 1)).text("/runId");
    assertThat(
            tenant.api().get("/api/v1/automation-runs/" + first).at("/run/canvas_version").asInt())
        .isEqualTo(1);

    // a new canvas version adds a secret
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + seq + "/canvas",
                waitAfter(hook, Map.of("secretToken", "s3cret")));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    assertThat(fire(hook, Map.of("n", 2)).status()).isEqualTo(401);
    String base = "/api/webhooks/automation/" + tenant.id() + "/" + hook;
    ApiResponse withSecret =
        anonymous().withHeader("X-Webhook-Secret", "s3cret").post(base, Map.of("n", 3));
    assertThat(withSecret.status()).as(withSecret.toString()).isEqualTo(200);
    assertThat(
            tenant
                .api()
                .get("/api/v1/automation-runs/" + withSecret.text("/runId"))
                .at("/run/canvas_version")
                .asInt())
        .isEqualTo(2);

    // paused, then active again
    tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "paused"));
    ApiResponse paused =
        anonymous().withHeader("X-Webhook-Secret", "s3cret").post(base, Map.of("n", 4));
    assertThat(paused.status()).as(paused.toString()).isEqualTo(422);
    tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(
            anonymous()
                .withHeader("X-Webhook-Secret", "s3cret")
                .post(base, Map.of("n", 5))
                .status())
        .isEqualTo(200);

    // the trigger moves to another automation: gone from the first, then found in the second
    // (the first's new trigger has no secret: a looser trigger on a live flow, so confirmed)
    String other = uniqueId("other");
    ApiResponse without =
        tenant
            .api()
            .put(
                "/api/sequences/" + seq + "/canvas?confirm_looser_triggers=true",
                waitAfter(other, Map.of()));
    assertThat(without.status()).as(without.toString()).isEqualTo(200);
    assertThat(fire(hook, Map.of("n", 6)).status()).isEqualTo(404);
    String second = activeAutomation(waitAfter(hook, Map.of()));
    ApiResponse moved = fire(hook, Map.of("n", 7));
    assertThat(moved.status()).as(moved.toString()).isEqualTo(200);
    assertThat(
            tenant
                .api()
                .get("/api/v1/automation-runs/" + moved.text("/runId"))
                .at("/run/sequence_id")
                .asString())
        .isEqualTo(second);

    assertThat(tenant.api().get("/api/v1/automation-runs?sequence_id=" + seq).at("/total").asInt())
        .as("n = 1, 3 and 5")
        .isEqualTo(3);
  }

  /** trigger → delay 1 day: a run that stays running. */
  private static Map<String, Object> waitAfter(String trigger, Map<String, Object> triggerConfig) {
    return canvas(
        List.of(
            node(trigger, "webhook_trigger", triggerConfig),
            node("w", "delay", Map.of("delayDays", 1))),
        List.of(edge("e1", trigger, "w")));
  }

  @Test
  void runsAreListedByAutomationAndStatusAndIsolatedByTenant() {
    String hook = uniqueId("hook");
    String seq = triggerThenCall(hook, "GET", "/x");
    String runId = fire(hook, Map.of()).text("/runId");
    awaitRun(runId);
    ApiResponse listed =
        tenant.api().get("/api/v1/automation-runs?sequence_id=" + seq + "&status=completed");
    assertThat(listed.at("/total").asInt()).isEqualTo(1);
    assertThat(listed.text("/runs/0/id")).isEqualTo(runId);
    // the nodes each listed run reached, in the order it reached them, for its branch
    assertThat(listed.at("/nodes_reached/" + runId).valueStream().map(JsonNode::asString).toList())
        .containsExactly(hook, "call");
    assertThat(tenant.api().get("/api/v1/automation-runs?status=failed").at("/total").asInt())
        .isZero();

    var other = newTenant();
    assertThat(other.api().get("/api/v1/automation-runs/" + runId).status()).isEqualTo(404);
    assertThat(other.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
        .isEqualTo(404);
    assertThat(other.api().post("/api/v1/automation-runs/" + runId + "/retry", Map.of()).status())
        .isEqualTo(404);
    assertThat(other.api().get("/api/v1/automation-runs").at("/total").asInt()).isZero();
  }

  @Test
  void theReconcilerStartsAcceptedRunsWhoseWorkflowNeverStarted() {
    String hook = uniqueId("hook");
    String seq = triggerThenCall(hook, "GET", "/late");
    // as if the process had died between committing the run and starting its workflow
    UUID runId = insertUnstartedRun(seq, hook, "now()");
    JsonNode run = awaitRun(runId.toString());
    assertThat(run.get("status").asString()).isEqualTo("completed");
    assertThat(peer.received("/late")).hasSize(1);
  }

  /** An accepted run whose workflow was not started, created at {@code createdAt} (SQL). */
  private UUID insertUnstartedRun(String sequenceId, String triggerNodeId, String createdAt) {
    UUID runId = UUID.randomUUID();
    jdbc.sql(
            """
        insert into automation_run (id, tenant_id, sequence_id, canvas_version, trigger_node_id,
            start_node_id, trigger_payload, workflow_id, created_at)
        values (:id, :t, :s, 1, :n, :n, '{"late": true}', :w, %s)
        """
                .formatted(createdAt))
        .param("id", runId)
        .param("t", tenant.id())
        .param("s", UUID.fromString(sequenceId))
        .param("n", triggerNodeId)
        .param("w", "run-" + runId)
        .update();
    return runId;
  }

  @Test
  void aRunCancelledBeforeItsWorkflowStartsIsNeverStarted() {
    String hook = uniqueId("hook");
    String seq = triggerThenCall(hook, "POST", "/cancelled");
    // accepted, its start still on its way (in the start pool); created "later" so that the
    // reconciler leaves it to this test
    UUID runId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");

    ApiResponse cancelled =
        tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.text("/run/status")).isEqualTo("cancelled");

    // the start that was on its way (the pool's, or a reconciler round's) comes after the cancel
    var run = runRepository.find(tenant.id(), runId).orElseThrow();
    assertThat(starter.start(run)).isTrue();

    assertNeverStarted(runId, "/cancelled");
  }

  /** The run stays cancelled, its workflow was never created and its call never made. */
  private void assertNeverStarted(UUID runId, String callPath) {
    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub("run-" + runId).describe())
        .as("never started")
        .isInstanceOf(WorkflowNotFoundException.class);
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Patience.EVENTUALLY)
        .until(() -> peer.received(callPath).isEmpty());
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .isEqualTo("cancelled");
  }

  @Autowired private com.crmflow.api.flow.CanvasRepository canvasRepository;
  @Autowired private com.crmflow.api.contact.ContactRepository contactRepository;
  @Autowired private RunEnding runEnding;
  @Autowired private com.crmflow.api.nodetype.NodeTypes nodeTypes;
  @Autowired private com.crmflow.api.flow.SequenceRepository sequenceRepository;

  /** Another api-server's starter and cancels, over the same database and Temporal. */
  private record ApiServer(RunStarter starter, RunCancels cancels) {}

  /**
   * Another api-server sharing this one's runs (the distributed profile): its own starter, with its
   * own memory of cancels, over the same database and Temporal.
   */
  private ApiServer sharingApiServer() {
    RunInputs inputs = new RunInputs(canvasRepository, contactRepository, nodeTypes, true);
    RunCancels cancels = new RunCancels(temporal, runRepository, runEnding, true);
    return new ApiServer(
        new RunStarter(
            runRepository,
            cancels,
            new RunWorkflowStart(
                temporal,
                runEnding,
                sequenceRepository,
                inputs,
                new RetryChains(runRepository, inputs),
                cancels)),
        cancels);
  }

  /** Runs the test with two such api-servers: the one that accepted runs, and a second one. */
  private void onTwoSharingApiServers(BiConsumer<RunStarter, RunCancels> test) {
    ApiServer accepting = sharingApiServer();
    ApiServer cancelling = sharingApiServer();
    try {
      test.accept(accepting.starter(), cancelling.cancels());
    } finally {
      accepting.starter().stopStarting();
      cancelling.starter().stopStarting();
    }
  }

  /** An active automation {@code hook → wait 1 hour → call}; returns its id. */
  private String triggerThenWaitThenCall(String hook, String path) {
    return activeAutomation(
        chain(
            hook,
            node("wait", "delay", Map.of("delayHours", 1)),
            node("call", "http_request", http("POST", peer.url(path)))));
  }

  private WorkflowExecutionStatus workflowStatus(UUID runId) {
    return temporal.newUntypedWorkflowStub("run-" + runId).describe().getStatus();
  }

  @Test
  void withSharedRunsAStartSeesACancelAnotherApiServerHandled() {
    String hook = uniqueId("hook");
    String seq = triggerThenCall(hook, "POST", "/cancelled-elsewhere");
    UUID runId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    onTwoSharingApiServers(
        (accepting, cancelling) -> {
          // the cancel reached the other server, which found no workflow yet
          cancelling.cancelledBeforeStart(runId, "run-" + runId);
          // then the accepting server's start, on its way all along, comes
          assertThat(accepting.start(runRepository.find(tenant.id(), runId).orElseThrow()))
              .isTrue();

          assertNeverStarted(runId, "/cancelled-elsewhere");
        });
  }

  @Test
  void withSharedRunsACancelFindsTheWorkflowAnotherApiServerStartedMeanwhile() {
    String hook = uniqueId("hook");
    String seq = triggerThenWaitThenCall(hook, "/started-elsewhere");
    UUID runId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    onTwoSharingApiServers(
        (accepting, cancelling) -> {
          // the cancelling server found no workflow; the other one started it before the end
          assertThat(accepting.start(runRepository.find(tenant.id(), runId).orElseThrow()))
              .isTrue();
          assertThat(workflowStatus(runId)).isEqualTo(WORKFLOW_EXECUTION_STATUS_RUNNING);

          cancelling.cancelledBeforeStart(runId, "run-" + runId);

          await()
              .atMost(Patience.EVENTUALLY)
              .until(() -> workflowStatus(runId) == WORKFLOW_EXECUTION_STATUS_CANCELED);
          assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
              .isEqualTo("cancelled");
          assertThat(peer.received("/started-elsewhere")).isEmpty();
        });
  }

  @Test
  void withSharedRunsACancelLeavesAnotherRunsWorkflowUnderTheSameIdAlone() {
    String hook = uniqueId("hook");
    String seq = triggerThenWaitThenCall(hook, "/other-run");
    UUID runningId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    UUID cancelledId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    onTwoSharingApiServers(
        (accepting, cancelling) -> {
          assertThat(accepting.start(runRepository.find(tenant.id(), runningId).orElseThrow()))
              .isTrue();

          // as when an enrollment's workflow id has passed to the contact's next enrollment
          cancelling.cancelledBeforeStart(cancelledId, "run-" + runningId);

          assertThat(tenant.api().get("/api/v1/automation-runs/" + cancelledId).text("/run/status"))
              .isEqualTo("cancelled");
          await()
              .during(Duration.ofSeconds(1))
              .atMost(Patience.EVENTUALLY)
              .until(() -> workflowStatus(runningId) == WORKFLOW_EXECUTION_STATUS_RUNNING);
          assertThat(tenant.api().get("/api/v1/automation-runs/" + runningId).text("/run/status"))
              .isEqualTo("running");
          tenant.api().post("/api/v1/automation-runs/" + runningId + "/cancel", Map.of());
        });
  }

  @Test
  void cancellingARunLeavesAnotherRunsWorkflowUnderTheSameIdAlone() {
    String hook = uniqueId("hook");
    String seq = triggerThenWaitThenCall(hook, "/successor");
    UUID successorId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    assertThat(starter.start(runRepository.find(tenant.id(), successorId).orElseThrow())).isTrue();
    UUID predecessorId = insertUnstartedRun(seq, hook, "now() + interval '1 hour'");
    // as when an enrollment's workflow id has passed to the contact's next enrollment
    jdbc.sql("update automation_run set workflow_id = :w where id = :id")
        .param("w", "run-" + successorId)
        .param("id", predecessorId)
        .update();

    ApiResponse cancelled =
        tenant.api().post("/api/v1/automation-runs/" + predecessorId + "/cancel", Map.of());

    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.text("/run/status")).isEqualTo("cancelled");
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Patience.EVENTUALLY)
        .until(() -> workflowStatus(successorId) == WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(tenant.api().get("/api/v1/automation-runs/" + successorId).text("/run/status"))
        .isEqualTo("running");
    tenant.api().post("/api/v1/automation-runs/" + successorId + "/cancel", Map.of());
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> workflowStatus(successorId) == WORKFLOW_EXECUTION_STATUS_CANCELED);
  }

  @Test
  void endedRunsAreCountedByStatusForPrometheus() {
    double completedBefore = endedRuns("completed");
    String hook = uniqueId("hook");
    triggerThenCall(hook, "POST", "/counted");

    String runId = fire(hook, Map.of()).text("/runId");

    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("completed");
    // counted once the end commits, so an instant after the run reads completed
    await().atMost(Patience.EVENTUALLY).until(() -> endedRuns("completed") >= completedBefore + 1);
    assertThat(admin().get("/actuator/prometheus").rawBody())
        .contains("crm_runs_ended_total{status=\"failed\"}")
        .contains("crm_runs_ended_total{status=\"cancelled\"}")
        .contains("crm_runs_awaiting_start ");
  }

  /** crm.runs.ended for that status, as /actuator/prometheus shows it. */
  private double endedRuns(String status) {
    return prometheus("crm_runs_ended_total{status=\"" + status + "\"}");
  }

  @Test
  void aCanvasEditedMidRunDoesNotChangeTheRun() {
    String hook = uniqueId("hook");
    String seq =
        activeAutomation(
            canvas(
                List.of(
                    node(hook, "webhook_trigger", Map.of()),
                    node("wait", "delay", Map.of("delayHours", 0.0005)), // 1.8 seconds
                    node("call", "http_request", http("GET", peer.url("/version-one")))),
                List.of(edge("e1", hook, "wait"), edge("e2", "wait", "call"))));
    String runId = fire(hook, Map.of()).text("/runId");
    ApiResponse edited =
        tenant
            .api()
            .patch(
                "/api/sequences/" + seq + "/nodes/call",
                Map.of("data", Map.of("config", Map.of("url", peer.url("/version-two")))));
    assertThat(edited.status()).isEqualTo(200);

    JsonNode run = awaitRun(runId);
    assertThat(run.get("status").asString()).isEqualTo("completed");
    assertThat(run.get("canvas_version").asInt()).isEqualTo(1);
    assertThat(peer.received("/version-one")).hasSize(1);
    assertThat(peer.received("/version-two")).isEmpty();
  }

  @org.springframework.beans.factory.annotation.Autowired RunStarter starter;
  @org.springframework.beans.factory.annotation.Autowired RunRepository runRepository;

  @Test
  void startingAFinishedRunAgainDoesNotRunItTwice() {
    String hook = uniqueId("hook");
    triggerThenCall(hook, "POST", "/exactly-once");
    String runId = fire(hook, Map.of()).text("/runId");
    assertThat(awaitRun(runId).get("status").asString()).isEqualTo("completed");

    // what a late reconciler round or a queued start would do
    var run = runRepository.find(tenant.id(), UUID.fromString(runId)).orElseThrow();
    assertThat(starter.start(run)).isTrue();
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Patience.EVENTUALLY)
        .until(() -> peer.received("/exactly-once").size() == 1);
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/node_log").size())
        .isEqualTo(2);
  }

  /**
   * A run resumed where its log stands carries the logged outputs in its workflow's input. One that
   * carries more than Temporal takes fails with the reason instead of being tried again forever;
   * while its workflow still runs, a start leaves it alone.
   */
  @Test
  void aRunWhoseLoggedOutputsAreTooLargeToResumeFailsSayingSoUnlessItsWorkflowRuns() {
    String hook = uniqueId("hook");
    String seq =
        activeAutomation(
            chain(
                hook,
                node("one", "http_request", http("GET", peer.url("/never-one"))),
                node("two", "http_request", http("GET", peer.url("/never-two"))),
                node("three", "http_request", http("GET", peer.url("/never-three")))));
    AutomationRun run = storedRun(seq, hook, Map.of());
    UUID runId = run.id();
    String at = "2026-11-24T10:00:00.000Z";
    Map<String, Object> answer = Map.of("statusCode", 200, "body", "x".repeat(900_000));
    runRepository.recordNodes(
        runId,
        List.of(
            new NodeLogEntry(1, hook, "webhook_trigger", "completed", at, at, Map.of(), null),
            new NodeLogEntry(2, "one", "http_request", "completed", at, at, answer, null),
            new NodeLogEntry(3, "two", "http_request", "completed", at, at, answer, null)));

    assertThat(starter.start(run)).isTrue();

    JsonNode failed = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(failed.get("status").asString()).isEqualTo("failed");
    assertThat(failed.get("error").asString())
        .startsWith("the run cannot start: its workflow input")
        .contains("over the 1572864 bytes Temporal takes");
    assertThat(failed.get("node_log").size()).isEqualTo(3);
    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub(run.workflowId()).describe())
        .isInstanceOf(WorkflowNotFoundException.class);
    assertThat(peer.received("/never-three")).isEmpty();

    // the same log under a workflow that waits on: a reconciler's probe changes nothing
    String waiting = uniqueId("hook");
    peer.answer("/large-answer", 200, "\"" + "x".repeat(900_000) + "\"");
    activeAutomation(
        chain(
            waiting,
            node("one", "http_request", http("GET", peer.url("/large-answer"))),
            node("two", "http_request", http("GET", peer.url("/large-answer"))),
            node("wait", "delay", Map.of("delayDays", 1))));
    UUID waitingId = UUID.fromString(fire(waiting, Map.of()).text("/runId"));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                tenant.api().get("/api/v1/automation-runs/" + waitingId).at("/run/node_log").size()
                    == 4);
    assertThat(starter.start(runRepository.find(tenant.id(), waitingId).orElseThrow())).isTrue();
    JsonNode stillWaiting = tenant.api().get("/api/v1/automation-runs/" + waitingId).at("/run");
    assertThat(stillWaiting.get("status").asString()).isEqualTo("running");
    assertThat(stillWaiting.at("/node_log/3/status").asString()).isEqualTo("running");
  }

  /**
   * A run of the automation's first canvas version, stored as a trigger would store it but not
   * started: a schedule, a CRM event, the reconciler or a resumer starts such a run.
   */
  private AutomationRun storedRun(String sequenceId, String triggerNodeId, Object payload) {
    return runRepository
        .insert(
            new RunRepository.NewRun(
                UUID.randomUUID(),
                tenant.id(),
                UUID.fromString(sequenceId),
                1,
                triggerNodeId,
                triggerNodeId,
                payload,
                null,
                null,
                null,
                null,
                null))
        .orElseThrow();
  }

  /**
   * hook → check → call when {@code trigger.go} is "yes", else a chain of 55 http_request nodes
   * whose 15,000-character bodies make the canvas about 830 kB of JSON (never run).
   */
  private String largeCanvasAutomation(String hook, String path) {
    List<Map<String, Object>> nodes = new ArrayList<>();
    List<Map<String, Object>> edges = new ArrayList<>();
    nodes.add(node(hook, "webhook_trigger", Map.of()));
    nodes.add(
        node(
            "check",
            "condition",
            Map.of("field", "{{trigger.go}}", "operator", "equals", "value", "yes")));
    nodes.add(node("call", "http_request", http("POST", peer.url(path))));
    edges.add(edge("e-check", hook, "check"));
    edges.add(edge("e-call", "check", "call", "true"));
    String padding = "\"" + "p".repeat(15_000) + "\"";
    for (int i = 1; i <= 55; i++) {
      nodes.add(
          node(
              "pad" + i,
              "http_request",
              http("POST", peer.url("/never"), "bodyTemplate", padding)));
      edges.add(
          i == 1
              ? edge("e-pad1", "check", "pad1", "false")
              : edge("e-pad" + i, "pad" + (i - 1), "pad" + i));
    }
    return activeAutomation(canvas(nodes, edges));
  }

  @Test
  void aTriggerWhosePayloadAndCanvasTogetherAreTooLargeToStartARunIsRefused() {
    String hook = uniqueId("hook");
    String seq = largeCanvasAutomation(hook, "/large-canvas");

    ApiResponse refused = fire(hook, Map.of("go", "yes", "blob", "b".repeat(800_000)));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(413);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.text("/detail"))
        .contains("This payload (800", "the automation's canvas (8", "over the 1572864 bytes");
    assertThat(tenant.api().get("/api/v1/automation-runs?sequence_id=" + seq).at("/total").asInt())
        .isZero();

    // 600 kB is measured (three bytes a character could pass the limit) and fits beside the canvas
    ApiResponse accepted = fire(hook, Map.of("go", "yes", "blob", "b".repeat(600_000)));
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
    JsonNode run = awaitRun(accepted.text("/runId"));
    assertThat(run.get("status").asString()).as(run.get("error").toString()).isEqualTo("completed");
    assertThat(run.at("/trigger_payload/blob").asString()).hasSize(600_000);
    assertThat(peer.received("/large-canvas")).hasSize(1);
    assertThat(peer.received("/never")).isEmpty();
  }

  @Test
  void aRunNotFromTheTriggerThatIsTooLargeToStartFailsSayingSo() {
    // a schedule, a CRM event, an enrollment or the reconciler starts a stored run this way
    String hook = uniqueId("hook");
    String seq = largeCanvasAutomation(hook, "/large-stored");
    AutomationRun run = storedRun(seq, hook, Map.of("go", "yes", "blob", "b".repeat(800_000)));
    UUID runId = run.id();

    assertThat(starter.start(run)).as("nothing for the reconciler to try again").isTrue();

    JsonNode failed = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(failed.get("status").asString()).isEqualTo("failed");
    assertThat(failed.get("error").asString())
        .startsWith("the run cannot start: its workflow input (trigger payload, contact, canvas")
        .contains("over the 1572864 bytes Temporal takes");
    assertThatThrownBy(() -> temporal.newUntypedWorkflowStub(run.workflowId()).describe())
        .isInstanceOf(WorkflowNotFoundException.class);
    assertThat(peer.received("/large-stored")).isEmpty();
  }
}
