package com.crmflow.api.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A key never reads or changes another tenant's data: every id route answers 404. */
class TenantIsolationTest extends ApiTest {

  private TenantClient owner;
  private TenantClient intruder;
  private String contactId;
  private String accountId;
  private String opportunityId;
  private String conversationId;
  private String taskId;

  @BeforeEach
  void ownerHasOneOfEverything() {
    owner = newTenant();
    intruder = newTenant();
    var api = owner.api();
    api.post(
        "/api/v1/custom-fields",
        Map.of("object_type", "contact", "field_label", "Secret", "field_type", "text"));
    ApiResponse contact =
        api.post(
            "/api/v1/contacts",
            Map.of(
                "email",
                "owner@example.com",
                "first_name",
                "Owner",
                "company",
                "OwnerCo",
                "create_account",
                true));
    contactId = contact.text("/contact/id");
    accountId = contact.text("/account/id");
    opportunityId =
        api.post("/api/v1/opportunities", Map.of("name", "Owner deal", "contact_id", contactId))
            .text("/opportunity/id");
    conversationId =
        api.post("/api/v1/conversations", Map.of("contact_id", contactId, "content", "hi"))
            .text("/conversation_id");
    taskId =
        api.post("/api/v1/tasks", Map.of("title", "Owner task", "contact_id", contactId))
            .text("/task/id");
    api.post("/api/v1/notes", Map.of("content", "Owner note", "contact_id", contactId));
  }

  @Test
  void idRoutesOfAnotherTenantAre404AndChangeNothing() {
    var api = intruder.api();
    List<ApiResponse> answers =
        List.of(
            api.get("/api/v1/contacts/" + contactId),
            api.patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Mallory")),
            api.get("/api/v1/accounts/" + accountId),
            api.patch("/api/v1/accounts/" + accountId, Map.of("name", "Pwned")),
            api.get("/api/v1/opportunities/" + opportunityId),
            api.patch("/api/v1/opportunities/" + opportunityId, Map.of("stage", "closed_lost")),
            api.get("/api/v1/conversations/" + conversationId),
            api.get("/api/v1/conversations/" + conversationId + "/messages"),
            api.patch(
                "/api/v1/conversations/" + conversationId,
                Map.of("override_status", "human_active")),
            api.patch("/api/v1/tasks/" + taskId, Map.of("status", "completed")));
    for (ApiResponse answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
    }

    var mine = owner.api();
    assertThat(mine.get("/api/v1/contacts/" + contactId).text("/contact/first_name"))
        .isEqualTo("Owner");
    assertThat(mine.get("/api/v1/accounts/" + accountId).text("/account/name"))
        .isEqualTo("OwnerCo");
    assertThat(mine.get("/api/v1/opportunities/" + opportunityId).at("/opportunity/stage").isNull())
        .isTrue();
    assertThat(
            mine.get("/api/v1/conversations/" + conversationId)
                .text("/conversation/override_status"))
        .isEqualTo("ai_active");
    assertThat(mine.get("/api/v1/tasks").text("/tasks/0/status")).isEqualTo("open");
    assertThat(events(owner.id()).stream().map(e -> e.get("event").asString()))
        .doesNotContain("contact.updated", "opportunity.updated", "conversation.override");
  }

  @Test
  void linksToAnotherTenantsRecordsAreRefused() {
    var api = intruder.api();
    assertThat(api.post("/api/v1/conversations", Map.of("contact_id", contactId)).status())
        .isEqualTo(422);
    assertThat(
            api.post(
                    "/api/v1/conversations",
                    Map.of(
                        "contact_id", contactId, "conversation_id", conversationId, "content", "x"))
                .status())
        .isEqualTo(422);
    assertThat(api.post("/api/v1/notes", Map.of("content", "x", "contact_id", contactId)).status())
        .isEqualTo(422);
    assertThat(api.post("/api/v1/tasks", Map.of("title", "x", "account_id", accountId)).status())
        .isEqualTo(422);
    assertThat(
            api.post("/api/v1/opportunities", Map.of("name", "x", "account_id", accountId))
                .status())
        .isEqualTo(422);
    assertThat(
            api.post("/api/v1/contacts", Map.of("email", "i@example.com", "account_id", accountId))
                .status())
        .isEqualTo(422);
    assertThat(
            owner
                .api()
                .get("/api/v1/conversations/" + conversationId + "/messages")
                .at("/messages")
                .size())
        .isEqualTo(1);
  }

  @Test
  void listsNeverShowAnotherTenantsRows() {
    var api = intruder.api();
    assertThat(api.get("/api/v1/contacts").at("/total").asInt()).isZero();
    assertThat(api.get("/api/v1/contacts?search=owner").at("/contacts").size()).isZero();
    assertThat(api.get("/api/v1/contacts?email=owner@example.com").at("/contacts").size()).isZero();
    assertThat(api.get("/api/v1/accounts").at("/total").asInt()).isZero();
    assertThat(api.get("/api/v1/opportunities").at("/total").asInt()).isZero();
    assertThat(api.get("/api/v1/conversations").at("/conversations").size()).isZero();
    assertThat(api.get("/api/v1/conversations?contact_id=" + contactId).at("/conversations").size())
        .isZero();
    assertThat(api.get("/api/v1/custom-fields").at("/fields").size()).isZero();
    assertThat(api.get("/api/v1/notes?contact_id=" + contactId).at("/notes").size()).isZero();
    assertThat(api.get("/api/v1/tasks").at("/tasks").size()).isZero();
  }

  @Test
  void sequencesCanvasesAndTemplatesOfAnotherTenantAre404() {
    String seq = com.crmflow.api.support.SequenceSupport.automation(owner.api(), "Owner flow");
    owner
        .api()
        .put(
            "/api/sequences/" + seq + "/canvas",
            com.crmflow.api.support.Flows.completeAutomation("owner-hook"));
    String template =
        owner
            .api()
            .post("/api/v1/email-templates", Map.of("name", "T", "subject", "S"))
            .text("/email_template/id");
    var api = intruder.api();
    String base = "/api/sequences/" + seq;
    List<ApiResponse> answers =
        List.of(
            api.get("/api/v1/sequences/" + seq),
            api.patch("/api/v1/sequences/" + seq, Map.of("status", "archived")),
            api.get(base + "/canvas"),
            api.put(base + "/canvas", Map.of("nodes", List.of(), "edges", List.of())),
            api.get(base + "/nodes"),
            api.patch(base + "/nodes/call", Map.of("position", Map.of("x", 1, "y", 1))),
            api.delete(base + "/nodes/call"),
            api.get(base + "/edges"),
            api.post(base + "/edges", Map.of("source", "call", "target", "wait")),
            api.delete(base + "/edges/e1"),
            api.get(base + "/versions"),
            api.get(base + "/versions/1"),
            api.post(base + "/validate", Map.of()),
            api.post(base + "/generate", Map.of("prompt", "wait 1 day")),
            api.post(base + "/optimize", Map.of()),
            api.get("/api/v1/email-templates/" + template),
            api.patch("/api/v1/email-templates/" + template, Map.of("subject", "x")),
            api.delete("/api/v1/email-templates/" + template));
    for (ApiResponse answer : answers) {
      assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
    }
    assertThat(owner.api().get(base + "/canvas").at("/canvas/version").asInt()).isEqualTo(1);
    assertThat(owner.api().get("/api/v1/sequences/" + seq).text("/sequence/status"))
        .isEqualTo("draft");
    assertThat(
            owner.api().get("/api/v1/email-templates/" + template).text("/email_template/subject"))
        .isEqualTo("S");
    assertThat(api.get("/api/v1/sequences?status=all").at("/sequences").size()).isZero();
    assertThat(api.get("/api/v1/email-templates").at("/email_templates").size()).isZero();
  }

  @Test
  void theSameEmailInAnotherTenantIsAnotherContact() {
    ApiResponse theirs =
        intruder
            .api()
            .post("/api/v1/contacts", Map.of("email", "owner@example.com", "first_name", "Other"));
    assertThat(theirs.status()).isEqualTo(201);
    assertThat(theirs.text("/contact/id")).isNotEqualTo(contactId);
    assertThat(owner.api().get("/api/v1/contacts/" + contactId).text("/contact/first_name"))
        .isEqualTo("Owner");
    // the custom field "secret" is the owner's: unknown to the intruder
    ApiResponse unknownField =
        intruder
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "x@example.com", "custom_fields", Map.of("secret", "s")));
    assertThat(unknownField.status()).isEqualTo(400);
  }
}
