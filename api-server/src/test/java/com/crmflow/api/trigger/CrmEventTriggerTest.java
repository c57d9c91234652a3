package com.crmflow.api.trigger;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** crm_event_trigger automations, started by the outbox dispatcher. */
class CrmEventTriggerTest extends ApiTest {

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

  /** crm_event_trigger (with the filter, if any) → http_request POSTing to the peer's path. */
  private String listen(String eventType, String filterField, String filterValue, String path) {
    Map<String, Object> trigger = new HashMap<>();
    trigger.put("eventType", eventType);
    if (filterField != null) {
      trigger.put("filterField", filterField);
      trigger.put("filterValue", filterValue);
    }
    String triggerId = uniqueId("on-event");
    return activeAutomation(
        tenant.api(),
        canvas(
            List.of(
                node(triggerId, "crm_event_trigger", trigger),
                node(
                    "tell",
                    "http_request",
                    Map.of(
                        "method",
                        "POST",
                        "url",
                        peer.url(path),
                        "bodyTemplate",
                        "{\"event\": \"{{trigger.event}}\", \"email\": \"{{trigger.data.email}}\","
                            + " \"first\": \"{{contact.first_name}}\"}"))),
            List.of(edge("e1", triggerId, "tell"))));
  }

  private String createContact(String email, String company) {
    return tenant
        .api()
        .post("/api/v1/contacts", Map.of("email", email, "first_name", "Eve", "company", company))
        .text("/contact/id");
  }

  private List<JsonNode> runsOf(String sequenceId) {
    JsonNode listed = tenant.api().get("/api/v1/automation-runs?sequence_id=" + sequenceId).json();
    return listed.at("/runs").valueStream().toList();
  }

  private void awaitAllDispatched() {
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                jdbc.sql(
                            "select count(*) from event_outbox where tenant_id = :t"
                                + " and dispatched_at is null")
                        .param("t", tenant.id())
                        .query(Long.class)
                        .single()
                    == 0);
  }

  @Test
  void aMatchingEventStartsARunWithTheEventAsPayloadAndOthersDoNot() {
    String filtered = listen("contact.created", "company", "Acme", "/acme");
    String unfiltered = listen("contact.created", null, null, "/all");
    String otherEvent = listen("opportunity.created", null, null, "/opps");

    String acmeContact = createContact("eve@acme.example", "Acme");
    createContact("zed@other.example", "Other");
    awaitAllDispatched();

    List<JsonNode> acmeRuns = runsOf(filtered);
    assertThat(acmeRuns).hasSize(1);
    JsonNode run = awaitRun(tenant.api(), acmeRuns.get(0).get("id").asString());
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/trigger_payload/event").asString()).isEqualTo("contact.created");
    assertThat(run.at("/trigger_payload/data/contact_id").asString()).isEqualTo(acmeContact);
    assertThat(peer.received("/acme")).hasSize(1);
    assertThat(peer.received("/acme").get(0).body())
        .isEqualTo(
            "{\"event\": \"contact.created\", \"email\": \"eve@acme.example\", \"first\": \"Eve\"}");

    assertThat(runsOf(unfiltered)).hasSize(2);
    await().atMost(Patience.EVENTUALLY).until(() -> peer.received("/all").size() == 2);
    assertThat(runsOf(otherEvent)).isEmpty();
  }

  @Test
  void anEventDispatchedAgainStartsNothingNew() {
    String sequence = listen("contact.created", null, null, "/once");
    createContact("once@example.com", "Once");
    awaitAllDispatched();
    await().atMost(Patience.EVENTUALLY).until(() -> peer.received("/once").size() == 1);
    String runId = runsOf(sequence).get(0).get("id").asString();
    awaitRun(tenant.api(), runId);

    // as if the process had died after starting the runs but before marking the event
    jdbc.sql("update event_outbox set dispatched_at = null where tenant_id = :t")
        .param("t", tenant.id())
        .update();
    awaitAllDispatched();

    assertThat(runsOf(sequence)).extracting(r -> r.get("id").asString()).containsExactly(runId);
    assertThat(peer.received("/once")).hasSize(1);
    UUID eventId =
        jdbc.sql("select event_id from event_outbox where tenant_id = :t")
            .param("t", tenant.id())
            .query(UUID.class)
            .single();
    UUID derived =
        UUID.nameUUIDFromBytes(
            ("crm-event:" + eventId + ":" + sequence).getBytes(StandardCharsets.UTF_8));
    assertThat(runId).isEqualTo(derived.toString());
  }

  @Test
  void anOpportunityStageFilterMatchesOnlyThatStage() {
    String won = listen("opportunity.stage_changed", "stage", "closed_won", "/won");
    String contactId = createContact("buyer@example.com", "Buyer");
    String opportunity =
        tenant
            .api()
            .post(
                "/api/v1/opportunities",
                Map.of("name", "Deal", "contact_id", contactId, "stage", "qualified"))
            .at("/opportunity/id")
            .asString();
    tenant.api().patch("/api/v1/opportunities/" + opportunity, Map.of("stage", "proposal"));
    tenant.api().patch("/api/v1/opportunities/" + opportunity, Map.of("stage", "closed_won"));
    awaitAllDispatched();

    List<JsonNode> runs = runsOf(won);
    assertThat(runs).hasSize(1);
    JsonNode run = awaitRun(tenant.api(), runs.get(0).get("id").asString());
    assertThat(run.at("/trigger_payload/data/stage").asString()).isEqualTo("closed_won");
    assertThat(run.at("/trigger_payload/data/opportunity_id").asString()).isEqualTo(opportunity);
  }
}
