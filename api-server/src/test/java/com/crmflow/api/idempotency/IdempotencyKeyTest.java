package com.crmflow.api.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.retention.Retention;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Idempotency-Key on the API's POST requests, over HTTP against PostgreSQL. */
class IdempotencyKeyTest extends ApiTest {

  @Autowired private Retention retention;

  private TenantClient tenant;
  private String key;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    key = "retry-" + UUID.randomUUID();
  }

  private ApiClient withKey(TenantClient client, String idempotencyKey) {
    return client.api().withHeader("Idempotency-Key", idempotencyKey);
  }

  private long opportunitiesNamed(TenantClient client, String name) {
    return jdbc.sql("select count(*) from opportunity where tenant_id = :t and name = :n")
        .param("t", client.id())
        .param("n", name)
        .query(Long.class)
        .single();
  }

  @Test
  void aRepeatedCreateGetsTheFirstAnswerAndCreatesNothingMore() {
    Map<String, Object> deal = Map.of("name", "Acme renewal", "value", 1200);

    ApiResponse first = withKey(tenant, key).post("/api/v1/opportunities", deal);
    ApiResponse repeat = withKey(tenant, key).post("/api/v1/opportunities", deal);

    assertThat(first.status()).as(first.toString()).isEqualTo(201);
    assertThat(first.header("Idempotent-Replayed")).isNull();
    assertThat(repeat.status()).isEqualTo(201);
    assertThat(repeat.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(repeat.rawBody()).isEqualTo(first.rawBody());
    assertThat(repeat.contentType()).isEqualTo(first.contentType());
    assertThat(opportunitiesNamed(tenant, "Acme renewal")).isEqualTo(1);
  }

  @Test
  void withoutTheHeaderEveryPostActs() {
    Map<String, Object> deal = Map.of("name", "No key deal");

    tenant.api().post("/api/v1/opportunities", deal);
    tenant.api().post("/api/v1/opportunities", deal);

    assertThat(opportunitiesNamed(tenant, "No key deal")).isEqualTo(2);
  }

  @Test
  void theSameKeyForAnotherRequestIsRefused() {
    withKey(tenant, key).post("/api/v1/opportunities", Map.of("name", "First deal"));

    ApiResponse other = withKey(tenant, key).post("/api/v1/opportunities", Map.of("name", "Other"));
    ApiResponse otherPath =
        withKey(tenant, key).post("/api/v1/tasks", Map.of("name", "First deal"));

    assertThat(other.status()).isEqualTo(422);
    assertThat(other.contentType()).startsWith("application/problem+json");
    assertThat(other.text("/detail")).contains("Idempotency-Key was used for another request");
    assertThat(otherPath.status()).isEqualTo(422);
    assertThat(opportunitiesNamed(tenant, "Other")).isZero();
  }

  @Test
  void keysArePerTenant() {
    TenantClient other = newTenant();
    Map<String, Object> deal = Map.of("name", "Shared key deal");

    ApiResponse mine = withKey(tenant, key).post("/api/v1/opportunities", deal);
    ApiResponse theirs = withKey(other, key).post("/api/v1/opportunities", deal);

    assertThat(theirs.status()).isEqualTo(201);
    assertThat(theirs.header("Idempotent-Replayed")).isNull();
    assertThat(theirs.text("/opportunity/id")).isNotEqualTo(mine.text("/opportunity/id"));
    assertThat(opportunitiesNamed(tenant, "Shared key deal")).isEqualTo(1);
    assertThat(opportunitiesNamed(other, "Shared key deal")).isEqualTo(1);
  }

  @Test
  void aClientErrorIsAnsweredTheSameWayAgain() {
    ApiResponse first = withKey(tenant, key).post("/api/v1/opportunities", Map.of("value", 5));
    ApiResponse repeat = withKey(tenant, key).post("/api/v1/opportunities", Map.of("value", 5));

    assertThat(first.status()).isEqualTo(400);
    assertThat(repeat.status()).isEqualTo(400);
    assertThat(repeat.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(repeat.rawBody()).isEqualTo(first.rawBody());
  }

  @Test
  void aRepeatWhileTheFirstIsStillHandledGets409AndAnAbandonedClaimIsTakenOver() {
    Map<String, Object> deal = Map.of("name", "Racing deal");
    // a request like the ones below, to learn their fingerprint (the key is not part of it)
    ApiResponse probe = withKey(tenant, "probe-" + key).post("/api/v1/opportunities", deal);
    String fingerprint = fingerprintOf("probe-" + key);
    String running = "running-" + key;
    claim(running, fingerprint, "now()"); // claimed a moment ago by a request still running

    ApiResponse whileRunning = withKey(tenant, running).post("/api/v1/opportunities", deal);

    assertThat(probe.status()).isEqualTo(201);
    assertThat(whileRunning.status()).isEqualTo(409);
    assertThat(whileRunning.text("/detail")).contains("still being handled");

    String abandoned = "abandoned-" + key;
    claim(abandoned, fingerprint, "now() - interval '2 minutes'");
    ApiResponse takenOver = withKey(tenant, abandoned).post("/api/v1/opportunities", deal);

    assertThat(takenOver.status()).as(takenOver.toString()).isEqualTo(201);
    assertThat(opportunitiesNamed(tenant, "Racing deal")).isEqualTo(2);
  }

  @Test
  void aKeyThatIsNotVisibleAsciiIsABadRequest() {
    ApiResponse tooLong =
        withKey(tenant, "k".repeat(256)).post("/api/v1/opportunities", Map.of("name", "Long"));

    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.at("/errors/0/field").asString()).isEqualTo("Idempotency-Key");
    assertThat(opportunitiesNamed(tenant, "Long")).isZero();
  }

  @Test
  void aChunkedBodyOverTheLimitIs413AndLeavesTheKeyFree() throws Exception {
    byte[] huge = ("{\"name\":\"" + "x".repeat(1_100_000) + "\"}").getBytes();
    HttpResponse<String> response =
        postChunked(tenant, "/api/v1/opportunities", huge, "Idempotency-Key", key);

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).contains("\"status\":413");
    ApiResponse smaller =
        withKey(tenant, key).post("/api/v1/opportunities", Map.of("name", "Smaller"));
    assertThat(smaller.status()).isEqualTo(201);
  }

  @Test
  void keysOlderThanADayAreForgotten() {
    claim("old-" + key, "0".repeat(64), "now() - interval '25 hours'");
    claim("new-" + key, "0".repeat(64), "now() - interval '23 hours'");

    retention.purge();

    assertThat(
            jdbc.sql(
                    "select idempotency_key from idempotent_request where tenant_id = :t"
                        + " order by idempotency_key")
                .param("t", tenant.id())
                .query(String.class)
                .list())
        .containsExactly(stored("new-" + key));
  }

  private void claim(String idempotencyKey, String fingerprint, String createdAt) {
    jdbc.sql(
            """
            insert into idempotent_request (tenant_id, idempotency_key, fingerprint, created_at)
            values (:t, :k, :f, %s)
            """
                .formatted(createdAt))
        .param("t", tenant.id())
        .param("k", stored(idempotencyKey))
        .param("f", fingerprint)
        .update();
  }

  private String fingerprintOf(String idempotencyKey) {
    return jdbc.sql(
            "select fingerprint from idempotent_request where tenant_id = :t and idempotency_key = :k")
        .param("t", tenant.id())
        .param("k", stored(idempotencyKey))
        .query(String.class)
        .single();
  }

  /** The key as stored: the id of the tenant's API key that sends it, then the key. */
  private String stored(String idempotencyKey) {
    UUID apiKeyId =
        jdbc.sql("select id from api_key where tenant_id = :t")
            .param("t", tenant.id())
            .query(UUID.class)
            .single();
    return apiKeyId + "/" + idempotencyKey;
  }
}
