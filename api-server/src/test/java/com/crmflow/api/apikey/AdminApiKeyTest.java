package com.crmflow.api.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AdminApiKeyTest extends ApiTest {

  /** A key of the tenant that may read contacts, as the admin API answers its creation. */
  private ApiResponse issueReadKey(UUID tenantId) {
    return admin()
        .post(
            "/admin/v1/tenants/" + tenantId + "/api-keys",
            Map.of("name", "ci", "scopes", List.of("contacts:read")));
  }

  private UUID createTenant() {
    ApiResponse tenant = admin().post("/admin/v1/tenants", Map.of("name", "Acme"));
    assertThat(tenant.status()).isEqualTo(201);
    assertThat(tenant.text("/tenant/name")).isEqualTo("Acme");
    return UUID.fromString(tenant.text("/tenant/id"));
  }

  @Test
  void createShowsThePlaintextOnceAndStoresOnlyItsHash() throws Exception {
    UUID tenantId = createTenant();
    ApiResponse created =
        admin()
            .post(
                "/admin/v1/tenants/" + tenantId + "/api-keys",
                Map.of("name", "ci", "scopes", List.of("contacts:read", "contacts:write")));

    assertThat(created.status()).isEqualTo(201);
    String key = created.text("/key");
    assertThat(key).matches("crm_[A-Za-z0-9_-]{43}"); // 256 random bits
    assertThat(created.text("/api_key/prefix")).isEqualTo(key.substring(0, 12));
    assertThat(created.text("/api_key/name")).isEqualTo("ci");
    assertThat(created.at("/api_key/scopes").toString())
        .isEqualTo("[\"contacts:read\",\"contacts:write\"]");

    String expectedHash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    String storedRow =
        jdbc.sql("select row_to_json(k)::text from api_key k where id = :id")
            .param("id", UUID.fromString(created.text("/api_key/id")))
            .query(String.class)
            .single();
    assertThat(storedRow).contains(expectedHash).doesNotContain(key);

    ApiResponse listed = admin().get("/admin/v1/tenants/" + tenantId + "/api-keys");
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.rawBody()).doesNotContain(key).doesNotContain(expectedHash);
    var entry = listed.at("/api_keys/0");
    assertThat(entry.get("id").asString()).isEqualTo(created.text("/api_key/id"));
    assertThat(entry.has("prefix")).isTrue();
    assertThat(entry.has("name")).isTrue();
    assertThat(entry.has("scopes")).isTrue();
    assertThat(entry.has("created_at")).isTrue();
    assertThat(entry.has("last_used_at")).isTrue();
    assertThat(entry.has("revoked_at")).isTrue();
    assertThat(entry.has("key")).isFalse();
  }

  @Test
  void usingAKeyRecordsLastUse() {
    UUID tenantId = createTenant();
    ApiResponse created = issueReadKey(tenantId);
    assertThat(withKey(created.text("/key")).get("/api/v1/contacts").status()).isEqualTo(200);

    ApiResponse listed = admin().get("/admin/v1/tenants/" + tenantId + "/api-keys");
    assertThat(listed.text("/api_keys/0/last_used_at")).isNotNull();
  }

  @Test
  void revocationIsImmediate() {
    UUID tenantId = createTenant();
    ApiResponse created = issueReadKey(tenantId);
    var client = withKey(created.text("/key"));
    assertThat(client.get("/api/v1/contacts").status()).isEqualTo(200);

    ApiResponse revoked =
        admin()
            .delete("/admin/v1/tenants/" + tenantId + "/api-keys/" + created.text("/api_key/id"));
    assertThat(revoked.status()).isEqualTo(200);
    assertThat(revoked.text("/api_key/revoked_at")).isNotNull();

    assertThat(client.get("/api/v1/contacts").status()).isEqualTo(401);
  }

  @Test
  void aKeyRevokedByAnotherInstanceStopsHereWithinTheCacheTime() {
    UUID tenantId = createTenant();
    ApiResponse created = issueReadKey(tenantId);
    var client = withKey(created.text("/key"));
    assertThat(client.get("/api/v1/contacts").status()).isEqualTo(200);

    // what another instance's DELETE leaves behind: the row revoked, this process not told
    long revokedAt = System.nanoTime();
    jdbc.sql("update api_key set revoked_at = now() where id = :id")
        .param("id", UUID.fromString(created.text("/api_key/id")))
        .update();

    // crm.api-keys.cache-for is 1 s, counted from the lookup made before the revocation: once it
    // has passed, the next call is refused, however slow the machine
    await().until(() -> System.nanoTime() - revokedAt > Duration.ofMillis(1_100).toNanos());
    ApiResponse refused = client.get("/api/v1/contacts");
    assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.at("/status").asInt()).isEqualTo(401);
  }

  @Test
  void keysOfOneTenantCannotBeReachedThroughAnother() {
    UUID owner = createTenant();
    UUID other = createTenant();
    ApiResponse created =
        admin()
            .post(
                "/admin/v1/tenants/" + owner + "/api-keys",
                Map.of("name", "ci", "scopes", List.of("contacts:read")));

    ApiResponse revoke =
        admin().delete("/admin/v1/tenants/" + other + "/api-keys/" + created.text("/api_key/id"));
    assertThat(revoke.status()).isEqualTo(404);
    assertThat(withKey(created.text("/key")).get("/api/v1/contacts").status()).isEqualTo(200);
    assertThat(admin().get("/admin/v1/tenants/" + other + "/api-keys").at("/api_keys").size())
        .isZero();
  }

  @Test
  void rejectsUnknownScopesAndTenants() {
    UUID tenantId = createTenant();
    ApiResponse badScope =
        admin()
            .post(
                "/admin/v1/tenants/" + tenantId + "/api-keys",
                Map.of("name", "ci", "scopes", List.of("contacts:read", "everything")));
    assertThat(badScope.status()).isEqualTo(400);
    assertThat(badScope.text("/errors/0/field")).isEqualTo("scopes[1]");

    ApiResponse noTenant =
        admin()
            .post(
                "/admin/v1/tenants/" + UUID.randomUUID() + "/api-keys",
                Map.of("name", "ci", "scopes", List.of("contacts:read")));
    assertThat(noTenant.status()).isEqualTo(404);
    assertThat(
            jdbc.sql("select count(*) from api_key where tenant_id = :t")
                .param("t", tenantId)
                .query(Integer.class)
                .single())
        .isZero();
  }

  @Test
  void adminApiNeedsTheAdminToken() {
    ApiResponse none = anonymous().post("/admin/v1/tenants", Map.of("name", "x"));
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer");

    ApiResponse wrong = withKey("not-the-admin-token").get("/admin/v1/tenants");
    assertThat(wrong.status()).isEqualTo(401);

    // a tenant API key is no admin token either
    var tenant = newTenant();
    assertThat(tenant.api().get("/admin/v1/tenants").status()).isEqualTo(401);
  }
}
