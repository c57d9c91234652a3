package com.crmflow.api.enrollment;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Enrollments and the scopes of the keys that make them: an enrollment's run and the sequence.*
 * events name the contact by id only, so a key without contacts:read gets nothing of the contact
 * through a sequence or an automation on those events; and enrolling needs the scopes the
 * sequence's nodes act with, as activating it does.
 */
class EnrollmentScopesTest extends ApiTest {

  private static final String EMAIL = "enrolled.person@example.com";

  /** A step that writes the contact: enrolling in its sequence needs contacts:write. */
  private static final Map<String, Object> MARK_CONTACT =
      Map.of(
          "type",
          "crm_update",
          "config",
          Map.of(
              "entityType",
              "contact",
              "recordId",
              "{{trigger.contact_id}}",
              "fieldMappings",
              Map.of("lead_status", "touched")));

  private LocalHttpServer peer;
  private TenantClient tenant;
  private ApiClient flowsOnly;

  @BeforeEach
  void setUp() {
    peer = new LocalHttpServer();
    tenant = newTenant();
    flowsOnly = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);
  }

  @AfterEach
  void tearDown() {
    peer.close();
  }

  private String contact() {
    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", EMAIL, "first_name", "Hidden"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  private ApiResponse enroll(ApiClient api, String sequenceId, String contactId) {
    return api.post(
        "/api/v1/sequences/enroll", Map.of("sequence_id", sequenceId, "contact_id", contactId));
  }

  private long count(String table, UUID tenantId) {
    return jdbc.sql("select count(*) from " + table + " where tenant_id = :t")
        .param("t", tenantId)
        .query(Long.class)
        .single();
  }

  private String leadStatus(String contactId) {
    return jdbc.sql("select coalesce(lead_status, '') from contact where id = :id")
        .param("id", UUID.fromString(contactId))
        .query(String.class)
        .single();
  }

  private static Map<String, Object> sendTrigger(String url) {
    return http(
        "POST",
        url,
        "bodyTemplate",
        "{\"all\": \"{{trigger}}\", \"e\": \"{{trigger.email}}\", \"d\": \"{{ trigger.data }}\"}");
  }

  @Test
  void aSequenceAndAnAutomationOnItsEventsGetTheContactsIdNotItsEmail() {
    peer.answer("/step", 200, "{}");
    peer.answer("/event", 200, "{}");
    String contactId = contact();
    // a linear sequence whose step posts its whole trigger, built and activated by a key without
    // contacts:read; the same for an automation on sequence.enrolled
    String linear = sequence(flowsOnly, "Exfiltrate " + UUID.randomUUID());
    ApiResponse steps =
        flowsOnly.put(
            "/api/v1/sequences/" + linear + "/steps",
            Map.of(
                "steps",
                List.of(Map.of("type", "http_request", "config", sendTrigger(peer.url("/step"))))));
    assertThat(steps.status()).as(steps.toString()).isEqualTo(200);
    ApiResponse active = flowsOnly.patch("/api/v1/sequences/" + linear, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    String onEnrolled = uniqueId("on-enrolled");
    String automation =
        activeAutomation(
            flowsOnly,
            canvas(
                List.of(
                    node(onEnrolled, "crm_event_trigger", Map.of("eventType", "sequence.enrolled")),
                    node("send", "http_request", sendTrigger(peer.url("/event")))),
                List.of(edge("e1", onEnrolled, "send"))));

    ApiResponse enrolled = enroll(flowsOnly, linear, contactId);

    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    String enrollmentId = enrolled.text("/enrollment/id");
    String runId =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    jdbc.sql(
                            "select id::text from automation_run where enrollment_id = :e"
                                + " and status = 'completed'")
                        .param("e", UUID.fromString(enrollmentId))
                        .query(String.class)
                        .optional(),
                java.util.Optional::isPresent)
            .orElseThrow();
    await().atMost(Patience.EVENTUALLY).until(() -> peer.received("/event").size() == 1);

    String stepSent = peer.received("/step").get(0).body();
    assertThat(stepSent).contains(contactId, enrollmentId).doesNotContain(EMAIL, "Hidden");
    assertThat(tenant.api().get("/api/v1/automation-runs/" + runId).toString())
        .contains(contactId)
        .doesNotContain(EMAIL);
    assertThat(
            jdbc.sql("select trigger_payload::text from automation_run where id = :id")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .contains(contactId)
        .doesNotContain(EMAIL);

    String eventSent = peer.received("/event").get(0).body();
    assertThat(eventSent).contains(contactId, "sequence.enrolled").doesNotContain(EMAIL, "Hidden");
    JsonNode event = events(tenant.id(), "sequence.enrolled").get(0);
    assertThat(event.at("/data/contact_id").asString()).isEqualTo(contactId);
    assertThat(event.toString()).doesNotContain(EMAIL);

    // the run of an automation on sequence.* names the enrolled contact: a reader of runs without
    // contacts:read sees its ids only
    String eventRunId =
        jdbc.sql("select id::text from automation_run where sequence_id = :s")
            .param("s", UUID.fromString(automation))
            .query(String.class)
            .single();
    ApiClient runReader =
        keyFor(tenant.id(), List.of("automation_runs:read", "sequences:read"), null);
    JsonNode shown =
        runReader.get("/api/v1/automation-runs/" + eventRunId).at("/run/trigger_payload");
    assertThat(shown.at("/data/contact_id").asString()).isEqualTo(contactId);
    assertThat(shown.at("/data/sequence_name").isMissingNode()).isTrue();
    assertThat(shown.at("/withheld/0").asString()).isEqualTo("contacts:read");
  }

  @Test
  void enrollingNeedsTheScopesTheSequenceActsWith() {
    String contactId = contact();
    String marking = activeSequence(MARK_CONTACT);
    long runsBefore = count("automation_run", tenant.id());
    long eventsBefore = events(tenant.id()).size();

    ApiResponse refused = enroll(flowsOnly, marking, contactId);

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "Enrolling a contact in this sequence needs the scopes its nodes act with; this API"
                + " key lacks contacts:write.");
    assertThat(count("enrollment", tenant.id())).isZero();
    assertThat(count("automation_run", tenant.id())).isEqualTo(runsBefore);
    assertThat(events(tenant.id())).hasSize((int) eventsBefore);
    assertThat(leadStatus(contactId)).isNotEqualTo("touched");

    ApiClient writer = keyFor(tenant.id(), List.of("sequences:write", "contacts:write"), null);
    ApiResponse enrolled = enroll(writer, marking, contactId);
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
    assertThat(count("enrollment", tenant.id())).isEqualTo(1);
    String runId =
        tenant
            .api()
            .get("/api/v1/sequences/" + marking + "/enrollments")
            .at("/enrollments/0/run_id")
            .asString();
    assertThat(awaitRun(tenant.api(), runId).get("status").asString()).isEqualTo("completed");
    assertThat(leadStatus(contactId)).isEqualTo("touched");
  }

  /** A new active sequence of the one step. */
  private String activeSequence(Map<String, Object> step) {
    String id = sequence(tenant.api(), "Steps " + UUID.randomUUID());
    ApiResponse steps =
        tenant.api().put("/api/v1/sequences/" + id + "/steps", Map.of("steps", List.of(step)));
    assertThat(steps.status()).as(steps.toString()).isEqualTo(200);
    assertThat(tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active")).status())
        .isEqualTo(200);
    return id;
  }

  /** Status, title, detail and field errors: what tells one answer from another. */
  private static String gist(ApiResponse answer) {
    return answer.status()
        + " "
        + answer.at("/title").asString("")
        + " "
        + answer.at("/detail").asString("")
        + " "
        + answer.at("/errors");
  }

  /**
   * Enrolling and unenrolling by contact_email answer alike for a known and an unknown address when
   * the key may not read contacts, and before the sequence's scopes are checked for a key that
   * lacks them: no key learns through them whether the tenant has a contact with an address.
   */
  @Test
  void enrollmentAnswersTellAKeyNothingOfContactsItCannotRead() {
    contact();
    String waiting = activeSequence(Map.of("type", "delay", "config", Map.of("delayHours", 1)));
    String unknown = "nobody-" + UUID.randomUUID() + "@example.com";

    for (String endpoint : List.of("/api/v1/sequences/enroll", "/api/v1/sequences/unenroll")) {
      ApiResponse known =
          flowsOnly.post(endpoint, Map.of("sequence_id", waiting, "contact_email", EMAIL));
      ApiResponse nobody =
          flowsOnly.post(endpoint, Map.of("sequence_id", waiting, "contact_email", unknown));
      assertThat(known.status()).as(known.toString()).isEqualTo(403);
      assertThat(known.text("/detail"))
          .isEqualTo(
              "Naming a contact by contact_email needs contacts:read, as the answer tells whether"
                  + " a contact has that address; this API key lacks it. Name the contact by"
                  + " contact_id.");
      assertThat(gist(nobody)).as(endpoint).isEqualTo(gist(known));
    }
    assertThat(count("enrollment", tenant.id())).isZero();

    // a key that reads contacts but lacks a scope the sequence acts with: refused before the
    // look-up
    String marking = activeSequence(MARK_CONTACT);
    ApiClient reader = keyFor(tenant.id(), List.of("sequences:write", "contacts:read"), null);
    ApiResponse known =
        reader.post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", marking, "contact_email", EMAIL));
    ApiResponse nobody =
        reader.post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", marking, "contact_email", unknown));
    assertThat(known.status()).as(known.toString()).isEqualTo(403);
    assertThat(gist(nobody)).isEqualTo(gist(known));
    assertThat(count("enrollment", tenant.id())).isZero();

    // a key that may read contacts is told about an unknown address, and enrolls a known one
    ApiResponse told =
        reader.post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", waiting, "contact_email", unknown));
    assertThat(told.status()).as(told.toString()).isEqualTo(422);
    assertThat(told.at("/errors/0/field").asString()).isEqualTo("contact_email");
    ApiResponse enrolled =
        reader.post(
            "/api/v1/sequences/enroll", Map.of("sequence_id", waiting, "contact_email", EMAIL));
    assertThat(enrolled.status()).as(enrolled.toString()).isEqualTo(201);
  }
}
