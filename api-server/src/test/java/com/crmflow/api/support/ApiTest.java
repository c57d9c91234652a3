package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the API tests: one running service (shared by every test class, so one embedded
 * PostgreSQL and one Temporal dev server per test JVM), real HTTP, and helpers that make a fresh
 * tenant with a key for each test so tests never see each other's data.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "crm.data-dir=target/test-data/${random.uuid}",
      "crm.embedded.temporal-port=0",
      "crm.embedded.temporal-ui-port=0",
      "crm.admin-token=" + ApiTest.ADMIN_TOKEN,
      // the tests' HTTP peers listen on loopback
      "crm.http.allow-private-addresses=true",
      "crm.runs.reconcile-interval=500ms",
      "crm.runs.reconcile-grace-seconds=1",
      "crm.schedules.check-interval=1s",
      // every test calls from 127.0.0.1, one source: its refusals are all kept as rows
      // (SecurityEventCapTest runs the caps)
      "crm.security-events.rows-per-source-per-minute=1000000",
      "crm.security-events.rows-per-minute=1000000"
    })
public abstract class ApiTest {

  public static final String ADMIN_TOKEN = "test-admin-token";

  static {
    TestDataDirs.removeUnheld(TestDataDirs.ROOT);
  }

  @LocalServerPort protected int port;

  @Autowired protected JdbcClient jdbc;

  protected String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /**
   * POSTs {@code body} with no known length, so it goes out chunked (a size limit is then only
   * found while reading), with the tenant's key and these extra headers (name, value, ...).
   */
  protected HttpResponse<String> postChunked(
      TenantClient tenant, String path, byte[] body, String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl() + path))
            .header("Authorization", "Bearer " + tenant.key())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  protected ApiClient admin() {
    return new ApiClient(baseUrl(), ADMIN_TOKEN);
  }

  protected ApiClient anonymous() {
    return new ApiClient(baseUrl(), null);
  }

  /** The value of one series (name and labels as printed) on /actuator/prometheus. */
  protected double prometheus(String series) {
    Matcher value =
        Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE)
            .matcher(admin().get("/actuator/prometheus").rawBody());
    assertThat(value.find()).as(series + " on /actuator/prometheus").isTrue();
    return Double.parseDouble(value.group(1));
  }

  protected ApiClient withKey(String key) {
    return new ApiClient(baseUrl(), key);
  }

  /** A new tenant, returned with a client whose key has every scope. */
  protected TenantClient newTenant() {
    return newTenant("*");
  }

  protected TenantClient newTenant(String... scopes) {
    ApiResponse tenant =
        admin().post("/admin/v1/tenants", Map.of("name", "t-" + UUID.randomUUID()));
    assertThat(tenant.status()).as(tenant.toString()).isEqualTo(201);
    UUID tenantId = UUID.fromString(tenant.text("/tenant/id"));
    String key = issueKey(tenantId, List.of(scopes), null);
    return new TenantClient(tenantId, key, withKey(key));
  }

  /** A further key of the tenant, with the given scopes and optional per-minute limit. */
  protected ApiClient keyFor(UUID tenantId, List<String> scopes, Integer ratePerMinute) {
    return withKey(issueKey(tenantId, scopes, ratePerMinute));
  }

  /** The plaintext of a new key of the tenant. */
  protected String issueKey(UUID tenantId, List<String> scopes, Integer ratePerMinute) {
    Map<String, Object> body = new java.util.HashMap<>();
    body.put("name", "test key");
    body.put("scopes", scopes);
    if (ratePerMinute != null) {
      body.put("rate_limit_per_minute", ratePerMinute);
    }
    ApiResponse key = admin().post("/admin/v1/tenants/" + tenantId + "/api-keys", body);
    assertThat(key.status()).as(key.toString()).isEqualTo(201);
    return key.text("/key");
  }

  /**
   * A webhook subscription of the tenant written straight to its table, inactive, so the dispatcher
   * sends nothing to it; its deliveries, if any, end {@code stopped}.
   */
  protected UUID inactiveWebhookSubscription(UUID tenantId) {
    UUID id = UUID.randomUUID();
    jdbc.sql(
            """
            insert into webhook_subscription (id, tenant_id, url, events, is_active)
            values (:id, :tenant, 'https://hooks.example.com/in', '{contact.created}', false)
            """)
        .param("id", id)
        .param("tenant", tenantId)
        .update();
    return id;
  }

  /** The tenant's outbox events (envelopes), oldest first. */
  protected List<JsonNode> events(UUID tenantId) {
    return jdbc
        .sql("select envelope::text from event_outbox where tenant_id = :t order by id")
        .param("t", tenantId)
        .query(String.class)
        .list()
        .stream()
        .map(JSON::readTree)
        .toList();
  }

  /** The tenant's outbox events of one name, oldest first. */
  protected List<JsonNode> events(UUID tenantId, String name) {
    return events(tenantId).stream().filter(e -> e.get("event").asString().equals(name)).toList();
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** A tenant and a client holding a key of it. */
  public record TenantClient(UUID id, String key, ApiClient api) {}
}
