package com.crmflow.api.outboundemail;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Embedded defaults have no SMTP server: emails are captured and listed, never lost. */
class CapturedEmailTest extends ApiTest {

  @Test
  void withoutSmtpTheEmailIsCapturedAndListed() {
    TenantClient tenant = newTenant();
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
            .text("/contact/id");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "mail",
                "email",
                Map.of(
                    "subject",
                    "Hi {{contact.first_name}}",
                    "body",
                    "Your plan: {{trigger.plan}}"))));

    String runId =
        fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId, "plan", "pro"));
    JsonNode run = awaitRun(tenant.api(), runId);

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log/1/output/status").asString()).isEqualTo("captured");
    ApiResponse listed = tenant.api().get("/api/v1/outbound-emails?run_id=" + runId);
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.at("/total").asInt()).isEqualTo(1);
    JsonNode email = listed.at("/outbound_emails/0");
    assertThat(email.get("status").asString()).isEqualTo("captured");
    assertThat(email.get("to_address").asString()).isEqualTo("ada@example.com");
    assertThat(email.get("subject").asString()).isEqualTo("Hi Ada");
    assertThat(email.get("text_body").asString()).isEqualTo("Your plan: pro");
    assertThat(email.get("message_id").asString()).isEqualTo("<" + runId + ".mail@crmflow.local>");
    assertThat(email.has("withheld")).isFalse();
    assertThat(listed.json().has("withheld")).as("every scope: nothing withheld").isFalse();
    assertThat(newTenant().api().get("/api/v1/outbound-emails").at("/total").asInt()).isZero();
    assertThat(tenant.api().get("/api/v1/outbound-emails?status=bounced").status()).isEqualTo(400);
  }

  @Test
  void aReaderOfRunsWithoutContactsReadSeesNeitherAddressNorContent() {
    TenantClient tenant = newTenant();
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "grace@example.com", "first_name", "Grace"))
            .text("/contact/id");
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node("mail", "email", Map.of("subject", "Hi {{contact.first_name}}", "body", "Hi"))));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    awaitRun(tenant.api(), runId);

    ApiResponse runsOnly =
        keyFor(tenant.id(), List.of("automation_runs:read"), null)
            .get("/api/v1/outbound-emails?run_id=" + runId);

    assertThat(runsOnly.status()).as(runsOnly.toString()).isEqualTo(200);
    assertThat(runsOnly.at("/total").asInt()).isEqualTo(1);
    JsonNode email = runsOnly.at("/outbound_emails/0");
    assertThat(email.get("run_id").asString()).isEqualTo(runId);
    assertThat(email.get("status").asString()).isEqualTo("captured");
    assertThat(email.get("message_id").asString()).isEqualTo("<" + runId + ".mail@crmflow.local>");
    assertThat(email.get("to_address").isNull()).as(email.toString()).isTrue();
    assertThat(email.get("subject").isNull()).as(email.toString()).isTrue();
    assertThat(email.get("text_body").isNull()).as(email.toString()).isTrue();
    assertThat(runsOnly.rawBody()).doesNotContain("grace@example.com").doesNotContain("Grace");
    assertThat(runsOnly.at("/withheld/0").asString()).isEqualTo("contacts:read");

    JsonNode withContacts =
        keyFor(tenant.id(), List.of("automation_runs:read", "contacts:read"), null)
            .get("/api/v1/outbound-emails?run_id=" + runId)
            .at("/outbound_emails/0");
    assertThat(withContacts.get("to_address").asString()).isEqualTo("grace@example.com");
    assertThat(withContacts.get("subject").asString()).isEqualTo("Hi Grace");
  }
}
