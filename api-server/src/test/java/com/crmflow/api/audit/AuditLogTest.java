package com.crmflow.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AuditLogTest extends ApiTest {

  private int auditRows(UUID tenantId) {
    return jdbc.sql("select count(*) from audit_log where tenant_id = :t and actor = 'api_key'")
        .param("t", tenantId)
        .query(Integer.class)
        .single();
  }

  @Test
  void successfulMutationsWriteOneRowWithKeyMethodPathStatusAndTime() {
    var tenant = newTenant();
    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", "audit@example.com"));
    assertThat(created.status()).isEqualTo(201);
    String contactId = created.text("/contact/id");
    ApiResponse patched =
        tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Ada"));
    assertThat(patched.status()).isEqualTo(200);

    ApiResponse log = admin().get("/admin/v1/audit-log?tenant_id=" + tenant.id());
    assertThat(log.status()).isEqualTo(200);
    assertThat(log.at("/total").asInt()).isEqualTo(auditRows(tenant.id()) + 2); // + admin calls
    var newest = log.at("/entries/0");
    assertThat(newest.get("method").asString()).isEqualTo("PATCH");
    assertThat(newest.get("path").asString()).isEqualTo("/api/v1/contacts/" + contactId);
    assertThat(newest.get("status").asInt()).isEqualTo(200);
    assertThat(newest.get("actor").asString()).isEqualTo("api_key");
    assertThat(newest.get("api_key_id").asString()).isNotBlank();
    assertThat(newest.get("created_at").asString()).isNotBlank();
    var older = log.at("/entries/1");
    assertThat(older.get("method").asString()).isEqualTo("POST");
    assertThat(older.get("path").asString()).isEqualTo("/api/v1/contacts");
    assertThat(older.get("status").asInt()).isEqualTo(201);
    assertThat(auditRows(tenant.id())).isEqualTo(2);
  }

  /**
   * The audit row commits with the change or not at all: with the row's insert failing for this
   * tenant (a trigger on audit_log), a change is refused as a whole and nothing of it stays.
   */
  @Test
  void aChangeWhoseAuditRowCannotBeWrittenDoesNotHappen() {
    var tenant = newTenant();
    String trigger = "audit_fails_" + tenant.id().toString().replace('-', '_');
    jdbc.sql(
            """
            create function %s() returns trigger language plpgsql as $$
            begin raise exception 'audit insert refused for this test'; end $$
            """
                .formatted(trigger))
        .update();
    jdbc.sql(
            """
            create trigger %s before insert on audit_log for each row
            when (new.tenant_id = '%s') execute function %s()
            """
                .formatted(trigger, tenant.id(), trigger))
        .update();
    ApiResponse refused;
    try {
      refused = tenant.api().post("/api/v1/contacts", Map.of("email", "unaudited@example.com"));
    } finally {
      jdbc.sql("drop trigger %s on audit_log".formatted(trigger)).update();
      jdbc.sql("drop function %s()".formatted(trigger)).update();
    }

    assertThat(refused.status()).as(refused.toString()).isEqualTo(500);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(tenant.api().get("/api/v1/contacts").at("/total").asInt())
        .as("the contact was not created without its audit row")
        .isZero();
    assertThat(events(tenant.id(), "contact.created")).as("nor its event").isEmpty();

    ApiResponse created =
        tenant.api().post("/api/v1/contacts", Map.of("email", "unaudited@example.com"));
    assertThat(created.status()).isEqualTo(201);
    assertThat(auditRows(tenant.id())).isEqualTo(1);
    assertThat(
            jdbc.sql("select status from audit_log where tenant_id = :t and actor = 'api_key'")
                .param("t", tenant.id())
                .query(Integer.class)
                .single())
        .as("the row written with the change, its status filled in after the answer")
        .isEqualTo(201);
  }

  @Test
  void refusedAttemptsAreKeptAsSecurityEventsWithTheirOutcome() {
    var tenant = newTenant();
    var readOnly = keyFor(tenant.id(), List.of("contacts:read"), null);

    assertThat(readOnly.post("/api/v1/contacts", Map.of("email", "a@b.example")).status())
        .isEqualTo(403);
    assertThat(withKey("crm_not_a_real_key_0123456789").get("/api/v1/accounts").status())
        .isEqualTo(401);
    assertThat(
            new com.crmflow.api.support.ApiClient(baseUrl(), "wrong")
                .get("/admin/v1/tenants")
                .status())
        .isEqualTo(401);

    ApiResponse ofTenant = admin().get("/admin/v1/security-events?tenant_id=" + tenant.id());
    assertThat(ofTenant.at("/total").asInt()).isEqualTo(1);
    var forbidden = ofTenant.at("/events/0");
    assertThat(forbidden.get("status").asInt()).isEqualTo(403);
    assertThat(forbidden.get("method").asString()).isEqualTo("POST");
    assertThat(forbidden.get("path").asString()).isEqualTo("/api/v1/contacts");
    assertThat(forbidden.get("reason").asString())
        .isEqualTo("the key lacks the scope contacts:write");
    assertThat(forbidden.get("api_key_id").asString()).isNotBlank();
    assertThat(forbidden.get("remote_address").asString()).isEqualTo("127.0.0.1");

    var recent = admin().get("/admin/v1/security-events?limit=10").at("/events");
    assertThat(recent.valueStream().map(e -> e.get("reason").asString()))
        .contains("an unknown or revoked API key", "a wrong admin token");
    assertThat(
            recent
                .valueStream()
                .filter(e -> e.get("path").asString().equals("/api/v1/accounts"))
                .map(e -> e.get("status").asInt()))
        .containsExactly(401);
  }

  @Test
  void readsAndRejectedCallsWriteNothing() {
    var tenant = newTenant();
    var readOnly = keyFor(tenant.id(), List.of("contacts:read"), null);

    assertThat(tenant.api().get("/api/v1/contacts").status()).isEqualTo(200);
    assertThat(tenant.api().post("/api/v1/contacts", Map.of("email", "nope")).status())
        .isEqualTo(400);
    assertThat(readOnly.post("/api/v1/contacts", Map.of("email", "a@b.example")).status())
        .isEqualTo(403);
    assertThat(withKey("crm_bad").post("/api/v1/contacts", Map.of("email", "a@b.example")).status())
        .isEqualTo(401);
    assertThat(
            tenant
                .api()
                .patch("/api/v1/contacts/" + UUID.randomUUID(), Map.of("title", "x"))
                .status())
        .isEqualTo(404);

    assertThat(auditRows(tenant.id())).isZero();
  }

  @Test
  void adminCallsAreAuditedAndTheLogPages() {
    var tenant = newTenant(); // two admin calls: tenant and key creation
    ApiResponse firstPage =
        admin().get("/admin/v1/audit-log?tenant_id=" + tenant.id() + "&limit=1");
    assertThat(firstPage.at("/total").asInt()).isEqualTo(2);
    assertThat(firstPage.at("/entries").size()).isEqualTo(1);
    assertThat(firstPage.text("/entries/0/path")).endsWith("/api-keys");
    assertThat(firstPage.text("/entries/0/actor")).isEqualTo("admin");
    ApiResponse secondPage =
        admin().get("/admin/v1/audit-log?tenant_id=" + tenant.id() + "&limit=1&offset=1");
    assertThat(secondPage.text("/entries/0/path")).isEqualTo("/admin/v1/tenants");

    assertThat(admin().get("/admin/v1/audit-log?limit=0").status()).isEqualTo(400);
  }
}
