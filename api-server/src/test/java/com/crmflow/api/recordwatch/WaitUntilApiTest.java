package com.crmflow.api.recordwatch;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.automation;
import static com.crmflow.api.support.SequenceSupport.awaitMoveCompleted;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * wait_until end to end on the real Temporal server: a run waits in its node until a CRM event
 * about its contact (or its deal) arrives through the outbox, routed by the record index, or gives
 * up at its timeout; each along its labelled edge.
 */
class WaitUntilApiTest extends ApiTest {

  @Autowired RecordEventDeliveries deliveries;

  private TenantClient tenant;
  private LocalHttpServer peer;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    peer = new LocalHttpServer();
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  /** webhook → wait_until (this config) → met: POST /met, timeout: POST /timeout. */
  private Map<String, Object> waitFor(String hook, Map<String, Object> waitConfig) {
    return canvas(
        List.of(
            node(hook, "webhook_trigger", Map.of()),
            node("reply", "wait_until", waitConfig),
            node(
                "met",
                "http_request",
                Map.of(
                    "method",
                    "POST",
                    "url",
                    peer.url("/met"),
                    "bodyTemplate",
                    "{\"said\": \"{{wait_until_1.event.data.content}}\"}")),
            node("gave-up", "http_request", Map.of("method", "POST", "url", peer.url("/timeout")))),
        List.of(
            edge("e1", hook, "reply"),
            edge("e2", "reply", "met", "met"),
            edge("e3", "reply", "gave-up", "timeout")));
  }

  private String contact(String email) {
    return tenant.api().post("/api/v1/contacts", Map.of("email", email)).text("/contact/id");
  }

  private JsonNode awaitWaiting(String runId) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> tenant.api().get("/api/v1/automation-runs/" + runId).at("/run/node_log/1"),
            entry -> "running".equals(entry.path("status").asString()) && watched(runId) == 1);
  }

  private int watched(String runId) {
    return jdbc.sql("select count(*) from record_watch where run_id = :id")
        .param("id", UUID.fromString(runId))
        .query(Integer.class)
        .single();
  }

  private void message(String contactId, String content, String direction) {
    ApiResponse sent =
        tenant
            .api()
            .post(
                "/api/v1/conversations",
                Map.of("contact_id", contactId, "content", content, "direction", direction));
    assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
  }

  @Test
  void aReplyFromTheRunsContactMeetsTheWaitAndTheRunGoesOnAlongMet() {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        waitFor(hook, Map.of("eventType", "conversation.message_received", "timeoutDays", 3)));
    String ada = contact("ada@example.com");
    String bob = contact("bob@example.com");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    JsonNode waiting = awaitWaiting(runId);
    Instant until = Instant.parse(waiting.at("/output/until").asString());
    assertThat(Duration.between(Instant.now(), until))
        .isBetween(Duration.ofDays(3).minusMinutes(1), Duration.ofDays(3));
    assertThat(waiting.at("/output/event").asString()).isEqualTo("conversation.message_received");

    message(bob, "I am someone else", "inbound");
    message(ada, "We write to her", "outbound");
    message(ada, "Yes, let's talk", "inbound");

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode met = run.at("/node_log/1");
    assertThat(met.get("status").asString()).isEqualTo("completed");
    assertThat(met.at("/output/outcome").asString()).isEqualTo("met");
    assertThat(met.at("/output/event/event").asString()).isEqualTo("conversation.message_received");
    assertThat(met.at("/output/event/data/contact_id").asString()).isEqualTo(ada);
    assertThat(met.at("/output/event/data/content").asString()).isEqualTo("Yes, let's talk");
    assertThat(run.at("/node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "reply", "met");
    assertThat(peer.received("/met")).hasSize(1);
    assertThat(peer.received("/met").get(0).body()).contains("Yes, let's talk");
    assertThat(peer.received("/timeout")).isEmpty();
    assertThat(watched(runId)).as("the watch is out of the index").isZero();
  }

  /**
   * A run waiting in a wait_until moves to a version where that node has another id (mapped): it
   * keeps its deadline and its watch of the record, and the reply that meets it sends the run along
   * version 2's met edge, once.
   */
  @Test
  void aWaitMovedToARenamedNodeKeepsItsDeadlineAndWatchAndGoesOnAlongTheNewVersionsMet() {
    String hook = uniqueId("hook");
    Map<String, Object> replyWithin3Days =
        Map.of("eventType", "conversation.message_received", "timeoutDays", 3);
    String flow = activeAutomation(tenant.api(), waitFor(hook, replyWithin3Days));
    String ada = contact("ada@example.com");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    JsonNode waiting = awaitWaiting(runId);
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + flow + "/canvas",
                canvas(
                    List.of(
                        node(hook, "webhook_trigger", Map.of()),
                        node("answer", "wait_until", replyWithin3Days),
                        node(
                            "met-v2",
                            "http_request",
                            Map.of("method", "POST", "url", peer.url("/met-v2"))),
                        node(
                            "gave-up",
                            "http_request",
                            Map.of("method", "POST", "url", peer.url("/timeout")))),
                    List.of(
                        edge("e1", hook, "answer"),
                        edge("e2", "answer", "met-v2", "met"),
                        edge("e3", "answer", "gave-up", "timeout"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);

    ApiResponse started =
        tenant
            .api()
            .post(
                "/api/sequences/" + flow + "/runs/move",
                Map.of("mapping", Map.of("reply", "answer")));
    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    JsonNode done =
        awaitMoveCompleted(
            tenant.api(),
            "/api/sequences/" + flow + "/runs/moves/" + started.text("/move/move_id"));
    assertThat(done.get("moved").asLong()).as(done.toString()).isEqualTo(1);
    JsonNode moved = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    assertThat(moved.get("canvas_version").asInt()).isEqualTo(2);
    JsonNode answer = moved.at("/node_log/1");
    assertThat(answer.get("nodeId").asString()).isEqualTo("answer");
    assertThat(answer.get("status").asString()).isEqualTo("running");
    assertThat(answer.at("/output/until").asString())
        .as("the deadline it had")
        .isEqualTo(waiting.at("/output/until").asString());
    assertThat(watched(runId)).as("still watching its contact").isEqualTo(1);

    message(ada, "Yes, let's talk", "inbound");

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "answer", "move:v2", "met-v2");
    assertThat(run.at("/node_log/1/output/outcome").asString()).isEqualTo("met");
    assertThat(peer.received("/met-v2")).hasSize(1);
    assertThat(peer.received("/met")).isEmpty();
    assertThat(peer.received("/timeout")).isEmpty();
    assertThat(watched(runId)).as("the watch is out of the index").isZero();
  }

  @Test
  void aFilteredWaitIsMetOnlyByAnEventWhoseFieldHoldsTheValue() {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        waitFor(
            hook,
            Map.of(
                "eventType",
                "contact.updated",
                "filterField",
                "lifecycle_stage",
                "filterValue",
                "customer",
                "timeoutHours",
                12)));
    String ada = contact("ada@example.com");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    awaitWaiting(runId);

    tenant.api().patch("/api/v1/contacts/" + ada, Map.of("lifecycle_stage", "lead"));
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> RecordIndexRows.dispatched(jdbc, tenant.id(), "contact.updated") == 1);
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/status"))
        .isEqualTo("running");
    assertThat(RecordIndexRows.routedTo(jdbc, runId))
        .as("the update to lead was not routed to the run")
        .isZero();
    tenant.api().patch("/api/v1/contacts/" + ada, Map.of("lifecycle_stage", "customer"));

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.at("/node_log/1/output/outcome").asString()).isEqualTo("met");
    assertThat(run.at("/node_log/1/output/event/data/lifecycle_stage").asString())
        .isEqualTo("customer");
    assertThat(RecordIndexRows.routedTo(jdbc, runId))
        .as("its deliveries left the index with its watch")
        .isZero();
  }

  @Test
  void withoutTheEventTheWaitGivesUpAtItsTimeoutAndGoesOnAlongTimeout() {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        waitFor(
            hook, Map.of("eventType", "conversation.message_received", "timeoutMinutes", 0.05)));
    String ada = contact("ada@example.com");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));

    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log/1/output/outcome").asString()).isEqualTo("timeout");
    assertThat(run.at("/node_log").valueStream().map(e -> e.get("nodeId").asString()))
        .containsExactly(hook, "reply", "gave-up");
    assertThat(peer.received("/timeout")).hasSize(1);
    assertThat(peer.received("/met")).isEmpty();
    assertThat(watched(runId)).isZero();
  }

  /**
   * A deal's events are the deal's: the run waits for its deal (the trigger's opportunity_id) to
   * change stage, and another deal of the same contact does not meet it.
   */
  @Test
  void aDealsStageChangeMeetsAWaitOnThatDealOnly() {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        waitFor(hook, Map.of("eventType", "opportunity.stage_changed", "timeoutDays", 14)));
    String ada = contact("ada@example.com");
    String deal = deal(ada, "Big deal");
    String other = deal(ada, "Other deal");
    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada, "opportunity_id", deal));
    awaitWaiting(runId);

    tenant.api().patch("/api/v1/opportunities/" + other, Map.of("stage", "negotiation"));
    tenant.api().patch("/api/v1/opportunities/" + deal, Map.of("stage", "closed_won"));

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.at("/node_log/1/output/outcome").asString()).isEqualTo("met");
    assertThat(run.at("/node_log/1/output/event/data/opportunity_id").asString()).isEqualTo(deal);
    assertThat(run.at("/node_log/1/output/event/data/new_stage").asString())
        .isEqualTo("closed_won");
  }

  /**
   * An event routed while the run's workflow cannot be told (its delivery failed) waits in the
   * index and reaches the run later, once; and a run cancelled while it waits leaves the index.
   */
  @Test
  void aDeliveryThatFailedReachesTheRunLaterAndACancelledRunLeavesTheIndex() {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        waitFor(hook, Map.of("eventType", "conversation.message_received", "timeoutDays", 1)));
    String ada = contact("ada@example.com");
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    awaitWaiting(runId);
    // a delivery stored by a dispatch whose signal did not go out (the process stopped after the
    // commit): the redelivery round sends it
    jdbc.sql(
            """
            insert into record_event_delivery (run_id, watcher, event_id, outbox_id, envelope,
                                               workflow_id, created_at)
            values (:run, 'reply', :event, 1,
                    cast(:envelope as jsonb), :workflow, now() - interval '1 minute')
            """)
        .param("run", UUID.fromString(runId))
        .param("event", UUID.randomUUID())
        .param(
            "envelope",
            "{\"event\": \"conversation.message_received\", \"data\": {\"contact_id\": \""
                + ada
                + "\", \"content\": \"Sent while you were away\"}}")
        .param("workflow", "run-" + runId)
        .update();

    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.at("/node_log/1/output/event/data/content").asString())
        .isEqualTo("Sent while you were away");
    assertThat(deliveries.runsWithPending()).doesNotContain(UUID.fromString(runId));

    String cancelled = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));
    awaitWaiting(cancelled);
    assertThat(
            tenant
                .api()
                .post("/api/v1/automation-runs/" + cancelled + "/cancel", Map.of())
                .status())
        .isEqualTo(200);
    await().atMost(Patience.EVENTUALLY).until(() -> watched(cancelled) == 0);
  }

  @Test
  void aWaitUntilNeedsATimeoutOfAtMostAYearAndLabelledEdgesAndItsEventsReadScope() {
    String sequenceId = automation(tenant.api(), "Waits");
    String hook = uniqueId("hook");
    Map<String, Object> noTimeout = waitFor(hook, Map.of("eventType", "contact.updated"));
    assertThat(tenant.api().put("/api/sequences/" + sequenceId + "/canvas", noTimeout).status())
        .isEqualTo(200);
    ApiResponse refused =
        tenant.api().patch("/api/v1/sequences/" + sequenceId, Map.of("status", "active"));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(refused.rawBody())
        .contains(
            "a wait_until needs a timeout: timeoutDays, timeoutHours or timeoutMinutes above 0");

    Map<String, Object> tooLong = new HashMap<>(Map.of("eventType", "contact.updated"));
    tooLong.put("timeoutDays", 365);
    tooLong.put("timeoutHours", 1);
    assertThat(
            tenant
                .api()
                .post("/api/sequences/" + sequenceId + "/validate", waitFor(hook, tooLong))
                .rawBody())
        .contains("a wait_until's timeout is at most a year");

    Map<String, Object> unlabelled =
        canvas(
            List.of(
                node(hook, "webhook_trigger", Map.of()),
                node(
                    "reply",
                    "wait_until",
                    Map.of("eventType", "contact.updated", "timeoutDays", 1)),
                node("next", "http_request", Map.of("method", "GET", "url", peer.url("/x")))),
            List.of(edge("e1", hook, "reply"), edge("e2", "reply", "next")));
    assertThat(
            tenant.api().post("/api/sequences/" + sequenceId + "/validate", unlabelled).rawBody())
        .contains("an edge leaving a wait_until is labelled met or timeout");

    // the flow reads the conversation's events: a key without conversations:read cannot activate it
    ApiClient narrow = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);
    String other = automation(narrow, "Narrow");
    assertThat(
            narrow
                .put(
                    "/api/sequences/" + other + "/canvas",
                    waitFor(
                        uniqueId("hook"),
                        Map.of("eventType", "conversation.message_received", "timeoutDays", 1)))
                .status())
        .isEqualTo(200);
    ApiResponse forbidden = narrow.patch("/api/v1/sequences/" + other, Map.of("status", "active"));
    assertThat(forbidden.status()).isEqualTo(403);
    assertThat(forbidden.rawBody()).contains("conversations:read");
  }

  private String deal(String contactId, String name) {
    return tenant
        .api()
        .post(
            "/api/v1/opportunities",
            Map.of("name", name, "contact_id", contactId, "stage", "proposal"))
        .text("/opportunity/id");
  }
}
