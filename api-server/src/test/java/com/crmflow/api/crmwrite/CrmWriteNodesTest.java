package com.crmflow.api.crmwrite;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** crm_update and create_record nodes write through the REST API's validation and events. */
class CrmWriteNodesTest extends ApiTest {

  @Autowired private CrmRecordActivities records;

  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
  }

  private String contact(String email) {
    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", email, "first_name", "Ada"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  private JsonNode runOne(Map<String, Object> actionConfig, String type, Object payload) {
    String hook = uniqueId("hook");
    activeAutomation(tenant.api(), chain(hook, node("write", type, actionConfig)));
    return awaitRun(tenant.api(), fire(anonymous(), tenant.id(), hook, payload));
  }

  @Test
  void crmUpdateChangesTheTriggersContactAndEmitsContactUpdated() {
    String contactId = contact("ada@example.com");
    tenant
        .api()
        .post(
            "/api/v1/custom-fields",
            Map.of("object_type", "contact", "field_label", "Plan", "field_type", "text"));

    JsonNode run =
        runOne(
            Map.of(
                "entityType",
                "contact",
                "fieldMappings",
                Map.of(
                    "lead_status", "{{trigger.status}}",
                    "title", "Head of {{trigger.team}}",
                    "custom_fields", Map.of("plan", "{{trigger.plan}}"))),
            "crm_update",
            Map.of("contact_id", contactId, "status", "qualified", "team", "Ops", "plan", "pro"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode stored = tenant.api().get("/api/v1/contacts/" + contactId).at("/contact");
    assertThat(stored.get("lead_status").asString()).isEqualTo("qualified");
    assertThat(stored.get("title").asString()).isEqualTo("Head of Ops");
    assertThat(stored.at("/custom_fields/plan").asString()).isEqualTo("pro");
    JsonNode updated = events(tenant.id(), "contact.updated").get(0);
    assertThat(updated.at("/data/contact_id").asString()).isEqualTo(contactId);
    assertThat(updated.at("/data/changed_fields").toString())
        .contains("lead_status", "title", "custom_fields");
    JsonNode output = run.at("/node_log/1/output");
    assertThat(output.get("entity_type").asString()).isEqualTo("contact");
    assertThat(output.get("id").asString()).isEqualTo(contactId);
    assertThat(output.at("/record/lead_status").asString()).isEqualTo("qualified");
  }

  /** crm_update of the opportunity whose id the trigger payload carries as {@code deal}. */
  private JsonNode updateOpportunity(Map<String, Object> fieldMappings, Object payload) {
    return runOne(
        Map.of(
            "entityType",
            "opportunity",
            "recordId",
            "{{trigger.deal}}",
            "fieldMappings",
            fieldMappings),
        "crm_update",
        payload);
  }

  @Test
  void crmUpdateOfAnOpportunityStageEmitsStageChanged() {
    ApiResponse opportunity =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Deal", "stage", "lead"));
    assertThat(opportunity.status()).as(opportunity.toString()).isEqualTo(201);
    String id = opportunity.text("/opportunity/id");

    JsonNode run =
        updateOpportunity(
            Map.of("stage", "won", "value", "{{trigger.amount}}"),
            Map.of("deal", id, "amount", 1250.5));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode stored = tenant.api().get("/api/v1/opportunities/" + id).at("/opportunity");
    assertThat(stored.get("stage").asString()).isEqualTo("won");
    assertThat(stored.get("value").decimalValue()).isEqualByComparingTo("1250.5");
    assertThat(events(tenant.id(), "opportunity.stage_changed")).hasSize(1);
  }

  /**
   * Rule 5: a mapping that is exactly one variable inserts a string too; the typed fields read it
   * as they read a client's string, and a string that is not one is a node error naming the field.
   */
  @Test
  void mappedValuesArriveAsStringsThatTypedFieldsParse() {
    tenant
        .api()
        .post(
            "/api/v1/custom-fields",
            Map.of("object_type", "opportunity", "field_label", "Seats", "field_type", "number"));
    String id =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Deal")).text("/opportunity/id");

    JsonNode parsed =
        updateOpportunity(
            Map.of(
                "value", "{{trigger.amount}}",
                "description", "{{trigger.items}}",
                "custom_fields", Map.of("seats", "{{trigger.seats}}")),
            Map.of("deal", id, "amount", 1200, "items", List.of("a", "b"), "seats", 12));
    JsonNode refused =
        updateOpportunity(
            Map.of("value", "{{trigger.amount}}"), Map.of("deal", id, "amount", "lots"));

    assertThat(parsed.get("status").asString()).as(parsed.toString()).isEqualTo("completed");
    JsonNode stored = tenant.api().get("/api/v1/opportunities/" + id).at("/opportunity");
    assertThat(stored.get("value").decimalValue()).isEqualByComparingTo("1200");
    assertThat(stored.get("description").asString())
        .as("a list inserted as its JSON text")
        .isEqualTo("[\"a\",\"b\"]");
    assertThat(stored.at("/custom_fields/seats").decimalValue()).isEqualByComparingTo("12");
    assertThat(refused.get("status").asString()).isEqualTo("failed");
    assertThat(refused.get("error").asString()).contains("value: must be a number");
    assertThat(
            tenant.api().get("/api/v1/opportunities/" + id).at("/opportunity/value").decimalValue())
        .as("the refused write changed nothing")
        .isEqualByComparingTo("1200");
  }

  @Test
  void aRefusedWriteNamesEachFieldOnce() {
    String id =
        tenant.api().post("/api/v1/opportunities", Map.of("name", "Deal")).text("/opportunity/id");

    JsonNode run = updateOpportunity(Map.of("value", -5, "probability", 500), Map.of("deal", id));

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.at("/node_log/1/error").asString())
        .contains("value: must be between 0 and 9999999999999999.99")
        .contains("probability: must be between 0 and 100")
        .doesNotContain("see errors");
    assertThat(tenant.api().get("/api/v1/opportunities/" + id).at("/opportunity/value").isNull())
        .isTrue();
  }

  @Test
  void anInvalidFieldFailsTheRunNamingTheFieldAndChangesNothing() {
    String contactId = contact("grace@example.com");

    JsonNode run =
        runOne(
            Map.of("entityType", "contact", "fieldMappings", Map.of("shoe_size", "44")),
            "crm_update",
            Map.of("contact_id", contactId));

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("write", "shoe_size");
    assertThat(run.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(events(tenant.id(), "contact.updated")).isEmpty();
  }

  @Test
  void createRecordIsRefusedWithoutTheRequiredCustomFieldsOfWhatItCreates() {
    for (String[] required : new String[][] {{"account", "Region"}, {"opportunity", "Region"}}) {
      ApiResponse defined =
          tenant
              .api()
              .post(
                  "/api/v1/custom-fields",
                  Map.of(
                      "object_type",
                      required[0],
                      "field_label",
                      required[1],
                      "field_type",
                      "text",
                      "is_required",
                      true));
      assertThat(defined.status()).as(defined.toString()).isEqualTo(201);
    }
    contact("required@example.com");
    tenant
        .api()
        .post(
            "/api/v1/custom-fields",
            Map.of(
                "object_type",
                "contact",
                "field_label",
                "Region",
                "field_type",
                "text",
                "is_required",
                true));

    for (Map<String, Object> fields :
        List.<Map<String, Object>>of(
            Map.of("name", "Acme"), Map.of("name", "Deal"), Map.of("email", "new@example.com"))) {
      String entity =
          fields.containsKey("email")
              ? "contact"
              : fields.get("name").equals("Acme") ? "account" : "opportunity";
      JsonNode run =
          runOne(Map.of("entityType", entity, "fieldMappings", fields), "create_record", Map.of());

      assertThat(run.get("status").asString()).as(entity + ": " + run).isEqualTo("failed");
      assertThat(run.get("error").asString()).contains("custom_fields.region: is required");
    }
    assertThat(tenant.api().get("/api/v1/accounts").at("/total").asInt()).isZero();
    assertThat(tenant.api().get("/api/v1/opportunities").at("/total").asInt()).isZero();
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt())
        .as("only the contact made before the field was required")
        .isEqualTo(1);
  }

  @Test
  void crmUpdateCannotReachAnotherTenantsRecord() {
    TenantClient other = newTenant();
    ApiResponse theirs = other.api().post("/api/v1/contacts", Map.of("email", "x@other.example"));
    String theirId = theirs.text("/contact/id");

    JsonNode run =
        runOne(
            Map.of("entityType", "contact", "fieldMappings", Map.of("title", "Hacked")),
            "crm_update",
            Map.of("contact_id", theirId));

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("not found");
    assertThat(other.api().get("/api/v1/contacts/" + theirId).at("/contact/title").isNull())
        .isTrue();
  }

  @Test
  void createRecordCreatesEveryEntityType() {
    String contactId = contact("linus@example.com");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "c",
                "create_record",
                Map.of(
                    "entityType",
                    "contact",
                    "fieldMappings",
                    Map.of("email", "{{trigger.email}}", "company", "Acme"))),
            node(
                "a",
                "create_record",
                Map.of("entityType", "account", "fieldMappings", Map.of("name", "Acme Ltd"))),
            node(
                "o",
                "create_record",
                Map.of(
                    "entityType",
                    "opportunity",
                    "fieldMappings",
                    Map.of(
                        "name",
                        "Acme deal",
                        "contact_id",
                        "{{create_record_1.id}}",
                        "value",
                        "{{trigger.amount}}"))),
            node(
                "n",
                "create_record",
                Map.of(
                    "entityType",
                    "note",
                    "fieldMappings",
                    Map.of("content", "Met {{trigger.email}}", "contact_id", contactId))),
            node(
                "t",
                "create_record",
                Map.of(
                    "entityType",
                    "task",
                    "fieldMappings",
                    Map.of("title", "Call back", "opportunity_id", "{{create_record_3.id}}")))));

    JsonNode run =
        awaitRun(
            tenant.api(),
            fire(
                anonymous(), tenant.id(), hook, Map.of("email", "new@acme.example", "amount", 99)));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode created =
        tenant.api().get("/api/v1/contacts?email=new@acme.example").at("/contacts/0");
    assertThat(created.get("company").asString()).isEqualTo("Acme");
    String newContact = created.get("id").asString();
    assertThat(tenant.api().get("/api/v1/accounts").at("/accounts").toString())
        .contains("Acme Ltd");
    String opportunityId = run.at("/node_log/3/output/id").asString();
    JsonNode opportunity =
        tenant.api().get("/api/v1/opportunities/" + opportunityId).at("/opportunity");
    assertThat(opportunity.get("contact_id").asString()).isEqualTo(newContact);
    assertThat(opportunity.get("value").decimalValue()).isEqualByComparingTo("99");
    assertThat(run.at("/node_log/4/output/record/content").asString())
        .isEqualTo("Met new@acme.example");
    assertThat(run.at("/node_log/5/output/record/opportunity_id").asString())
        .isEqualTo(opportunityId);
    assertThat(events(tenant.id(), "contact.created")).hasSize(2);
    assertThat(events(tenant.id(), "opportunity.created")).hasSize(1);
  }

  @Test
  void createRecordRunAgainAnswersWithTheRecordItCreatedInsteadOfASecondOne() {
    Map<String, Object> fields = Map.of("name", "Deal for {{trigger.company}}");
    JsonNode run =
        runOne(
            Map.of("entityType", "opportunity", "fieldMappings", fields),
            "create_record",
            Map.of("company", "Acme"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    String created = run.at("/node_log/1/output/id").asString();

    // the node run again: its activity retried after the first attempt committed, or its run
    // resumed after a restart before the node's log entry was written
    Map<String, Object> again =
        records.create(
            new CrmWrite(
                tenant.id().toString(),
                "opportunity",
                null,
                Map.of("name", "Deal for Acme"),
                run.get("id").asString(),
                "write"));

    assertThat(again.get("id")).isEqualTo(created);
    JsonNode opportunities = tenant.api().get("/api/v1/opportunities").at("/opportunities");
    assertThat(opportunities).hasSize(1);
    assertThat(opportunities.get(0).get("name").asString()).isEqualTo("Deal for Acme");
    assertThat(events(tenant.id(), "opportunity.created")).hasSize(1);
  }
}
