package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Odd bodies and parameters at the enrollment, steps and webhook endpoints: always a 4xx problem,
 * never a 5xx, and nothing stored. What a controller refuses before it reaches a store (a body that
 * is not an object, an ill-typed path or query parameter) is checked in its slice test too.
 */
class MalformedInputTest extends ApiTest {

  static List<Arguments> requests() {
    String any = UUID.randomUUID().toString();
    return List.of(
        Arguments.of("POST", "/api/v1/sequences/enroll", "{\"sequence_id\": {}}"),
        Arguments.of(
            "POST", "/api/v1/sequences/enroll", "{\"sequence_id\": 12, \"contact_id\": 1}"),
        Arguments.of(
            "POST",
            "/api/v1/sequences/enroll",
            "{\"sequence_id\": \"" + any + "\", \"contact_email\": [\"a@b.c\"]}"),
        Arguments.of("POST", "/api/v1/sequences/unenroll", "{\"contact_id\": \"x\"}"),
        Arguments.of("GET", "/api/v1/sequences/not-a-uuid/enrollments", null),
        Arguments.of("PUT", "/api/v1/sequences/" + any + "/steps", "{\"steps\": \"email\"}"),
        Arguments.of("PUT", "/api/v1/sequences/" + any + "/steps", "[1]"),
        Arguments.of("POST", "/api/v1/webhooks/subscribe", "{\"url\": 5, \"events\": \"all\"}"),
        Arguments.of(
            "POST",
            "/api/v1/webhooks/subscribe",
            "{\"url\": \"https://\", \"events\": [\"contact.created\"]}"),
        Arguments.of(
            "POST",
            "/api/v1/webhooks/subscribe",
            "{\"url\": \"https://exa mple.com\", \"events\": [\"contact.created\"]}"),
        Arguments.of(
            "POST",
            "/api/v1/webhooks/subscribe",
            "{\"url\": \"https://example.com/"
                + "x".repeat(3000)
                + "\", \"events\": [\"contact.created\"]}"),
        Arguments.of("PATCH", "/api/v1/webhooks/subscriptions/" + any, "{\"is_active\": \"yes\"}"),
        Arguments.of("PUT", "/api/v1/integrations/chat", "{\"provider\": {}, \"bot_token\": []}"),
        Arguments.of("POST", "/api/v1/automation-runs/not-a-uuid/cancel", "{}"));
  }

  @ParameterizedTest
  @MethodSource("requests")
  void answeredWithA4xxProblemAndNothingStored(String method, String path, String body) {
    TenantClient tenant = newTenant();
    ApiResponse response =
        tenant.api().send(method, path, body, body == null ? null : "application/json");

    assertThat(response.status()).as(method + " " + path + " " + body).isBetween(400, 499);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.text("/detail")).isNotBlank();
    for (String table : List.of("enrollment", "webhook_subscription", "canvas_version")) {
      assertThat(
              jdbc.sql("select count(*) from " + table + " where tenant_id = :t")
                  .param("t", tenant.id())
                  .query(Integer.class)
                  .single())
          .as(table)
          .isZero();
    }
  }

  /** Tomcat refuses a header over its 8 KB limit before our code runs: still a problem, no HTML. */
  @Test
  void aRequestTomcatRefusesItselfIsAProblemToo() {
    ApiResponse response =
        anonymous()
            .withHeader("X-Webhook-Secret", "x".repeat(20_000))
            .send(
                "POST",
                "/api/webhooks/automation/" + UUID.randomUUID() + "/hook",
                "{}",
                "application/json");

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.text("/title")).isEqualTo("Bad Request");
    assertThat(response.at("/status").asInt()).isEqualTo(400);
    assertThat(response.text("/detail")).contains("size limit");
  }
}
