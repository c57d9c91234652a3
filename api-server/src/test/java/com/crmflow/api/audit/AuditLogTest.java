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
