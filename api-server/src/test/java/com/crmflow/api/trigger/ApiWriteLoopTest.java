package com.crmflow.api.trigger;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.Flows.noteOfContactUpdates;
import static com.crmflow.api.support.Flows.titleFromTheBody;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.Patience;
import com.crmflow.shared.outbound.CauseHeader;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Loops through the authenticated API end: a write made with a run's CRM-Cause token carries that
 * run's cause, so an automation whose http_request writes its contact back through {@code PATCH
 * /api/v1/contacts/{id}} runs once, and the answer of that write names what it did not start. And
 * whatever the cause, an automation starts at most crm.events.max-runs-per-record-per-minute runs
 * for one record in a minute.
 */
class ApiWriteLoopTest extends LoopTest {

  /**
   * crm_event_trigger on contact.updated → http_request PATCHing the event's contact through the
   * API with the tenant's key, stored in the node as a secret header.
   */
  @Test
  void anAutomationThatWritesItsContactBackThroughTheApiRunsOnce() {
    String triggerId = uniqueId("on-update");
    String writeBack =
        activeAutomation(
            tenant.api(),
            "Write back",
            canvas(
                List.of(
                    node(triggerId, "crm_event_trigger", Map.of("eventType", "contact.updated")),
                    node(
                        "patch",
                        "http_request",
                        http(
                            "PATCH",
                            baseUrl() + "/api/v1/contacts/{{trigger.data.contact_id}}",
                            "headers",
                            Map.of("Authorization", "Bearer " + tenant.key()),
                            "bodyTemplate",
                            "{\"title\": \"{{trigger.timestamp}}\"}"))),
                List.of(edge("e1", triggerId, "patch"))));
    double cyclesBefore = refused(CrmEventTriggers.CYCLE);

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Louis"));
    awaitSettled(Map.of(writeBack, 1));

    JsonNode run = awaitRun(tenant.api(), runsOf(writeBack).get(0).get("id").asString());
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.get("cause").isNull()).as("an API client's event").isTrue();
    // the run's write went through: the contact's title is the event's timestamp
    assertThat(tenant.api().get("/api/v1/contacts/" + contactId).text("/contact/title"))
        .isEqualTo(run.at("/trigger_payload/timestamp").asString());
    // its event carries the run as its cause
    List<JsonNode> updates = contactUpdates();
    assertThat(updates).hasSize(2);
    assertThat(updates.get(0).get("cause").isNull()).isTrue();
    JsonNode cause = updates.get(1).get("cause");
    assertThat(cause.get("run_id").asString()).isEqualTo(run.get("id").asString());
    assertThat(cause.get("node_id").asString()).isEqualTo("patch");
    assertThat(cause.get("chain").valueStream().map(JsonNode::asString)).containsExactly(writeBack);
    assertThat(cause.get("root").asString()).isEqualTo(updates.get(0).get("event_id").asString());
    // the answer of the write names what it did not start, and the run's log shows it
    JsonNode answer = logEntry(run, "patch").get("output");
    assertThat(answer.get("statusCode").asInt()).isEqualTo(200);
    assertThat(answer.at("/headers/" + ApiWriteCauses.NOT_STARTED).asString())
        .isEqualTo("\"" + writeBack + "\";reason=cycle;event=\"contact.updated\"");
    assertThat(refused(CrmEventTriggers.CYCLE) - cyclesBefore).isEqualTo(1);
    assertThat(
            jdbc.sql(
                    """
                    select granted::text from event_outbox
                    where tenant_id = :t and event = 'contact.updated' and cause is not null
                    """)
                .param("t", tenant.id())
                .query(String.class)
                .single())
        .isEqualTo("[]");
  }

  @Test
  void aTokenOfAnotherTenantsRunOrNoneMakesAnApiWriteAClients() {
    TenantClient other = newTenant();
    String listener =
        activeAutomation(tenant.api(), "Listener", noteOfContactUpdates(uniqueId("on-update")));
    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Louis"));
    awaitSettled(Map.of(listener, 1));
    CauseHeader.Cause listenerRun =
        new CauseHeader.Cause(UUID.fromString(runsOf(listener).get(0).get("id").asString()), "x");

    for (String header :
        List.of(
            listenerRun.runAndNode(),
            causeHeader.value(other.id(), listenerRun).orElseThrow(),
            "garbage")) {
      ApiResponse written =
          tenant
              .api()
              .withHeader(CauseHeader.NAME, header)
              .patch("/api/v1/contacts/" + contactId, Map.of("title", header));
      assertThat(written.status()).as(written.toString()).isEqualTo(200);
      assertThat(written.header(ApiWriteCauses.NOT_STARTED)).isNull();
    }
    // each was a client's write: each started the listener, no event has a cause
    awaitSettled(Map.of(listener, 4));
    assertThat(contactUpdates()).allSatisfy(u -> assertThat(u.get("cause").isNull()).isTrue());
  }

  /**
   * The breaker, whatever the cause: a client's updates past the limit start no more runs of the
   * automation for that contact in the minute, and a run's write in that minute lists the refusal.
   * The limit counts per minute of the clock, so a scenario that a slow machine stretches past the
   * minute's end is run again for a new tenant (at most three times), and only a scenario that
   * stayed in one minute is checked.
   */
  @Test
  void anAutomationStartsAtMostItsLimitOfRunsPerRecordInAMinute() {
    for (int attempt = 1; !breakerInOneMinute(attempt == 3); attempt++) {
      // the crossed attempt's runs go on in its own tenant
      tenant = newTenant();
      contactId = contact("loop@example.com");
    }
  }

  /**
   * The breaker's scenario for this tenant and contact, checked unless it crossed a minute's end
   * and {@code last} is false.
   *
   * @return false when it crossed a minute's end and was not checked
   */
  private boolean breakerInOneMinute(boolean last) {
    int limit = properties.events().maxRunsPerRecordPerMinute();
    String listener =
        activeAutomation(tenant.api(), "Listener", noteOfContactUpdates(uniqueId("on-update")));
    String hookId = uniqueId("hook");
    String hook = activeAutomation(tenant.api(), "Titles from outside", titleFromTheBody(hookId));
    double breakerBefore = refused(CrmEventTriggers.BREAKER);
    // start at the beginning of a minute
    await()
        .atMost(Duration.ofSeconds(70))
        .until(() -> LocalTime.now(ZoneOffset.UTC).getSecond() < 10);

    for (int i = 0; i <= limit; i++) {
      ApiResponse updated =
          tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("title", "t" + i));
      assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
    }
    // the client's updates counted first (the listener's runs may still be going: only the count
    // has to be in this minute): the run's write then finds the minute's limit reached
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                windowsOf(listener).stream()
                    .mapToInt(w -> w.get("runs").asInt() + w.get("refused").asInt())
                    .sum(),
            counted -> counted == limit + 1);
    String hooked =
        fire(anonymous(), tenant.id(), hookId, Map.of("contact_id", contactId, "title", "run"));
    JsonNode run = awaitRun(tenant.api(), hooked);
    if (windowsOf(listener).size() > 1 && !last) {
      return false; // two minutes' counts: more runs than one minute allows
    }
    awaitSettled(Map.of(listener, limit));

    assertThat(refused(CrmEventTriggers.BREAKER) - breakerBefore).isEqualTo(2);
    // the client's update past the limit and the run's write: counted on the minute's window
    assertThat(windowsOf(listener))
        .containsExactly(
            JSON.readTree(
                "{\"record\": \"contact:"
                    + contactId
                    + "\", \"runs\": "
                    + limit
                    + ", \"refused\": 2}"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode notStarted = logEntry(run, "set-title").at("/output/automations_not_started");
    assertThat(notStarted).as(run.toString()).hasSize(1);
    assertThat(notStarted.at("/0/automation_id").asString()).isEqualTo(listener);
    assertThat(notStarted.at("/0/reason").asString()).isEqualTo("breaker");
    assertThat(notStarted.at("/0/message").asString())
        .isEqualTo(
            "contact.updated from this write starts no run of automation \"Listener\": it has"
                + " started "
                + limit
                + " runs for this event's record in this minute, the most"
                + " crm.events.max-runs-per-record-per-minute ("
                + limit
                + ") allows");
    assertThat(runsOf(hook)).hasSize(1);

    // another contact is a count of its own
    tenant.api().patch("/api/v1/contacts/" + contact("other@example.com"), Map.of("title", "x"));
    awaitSettled(Map.of(listener, limit + 1));
    return true;
  }

  /** The automation's start windows: record, runs and refused of each, oldest first. */
  private List<JsonNode> windowsOf(String sequenceId) {
    return jdbc
        .sql(
            """
            select jsonb_build_object('record', record_key, 'runs', runs,
                                      'refused', refused)::text
            from automation_start_window
            where tenant_id = :t and sequence_id = :s
            order by window_start
            """)
        .param("t", tenant.id())
        .param("s", UUID.fromString(sequenceId))
        .query(String.class)
        .list()
        .stream()
        .map(JSON::readTree)
        .toList();
  }
}
