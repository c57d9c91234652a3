package com.crmflow.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthenticationTest extends ApiTest {

  @Test
  void missingMalformedUnknownAndRevokedKeysGetTheSame401() {
    var tenant = newTenant();
    ApiResponse created =
        admin()
            .post(
                "/admin/v1/tenants/" + tenant.id() + "/api-keys",
                Map.of("name", "soon revoked", "scopes", List.of("*")));
    String revokedKey = created.text("/key");
    admin().delete("/admin/v1/tenants/" + tenant.id() + "/api-keys/" + created.text("/api_key/id"));

    List<ApiResponse> answers = new ArrayList<>();
    answers.add(anonymous().get("/api/v1/contacts")); // missing
    answers.add(
        anonymous().withHeader("Authorization", "Basic dXNlcjpwYXNz").get("/api/v1/contacts"));
    answers.add(anonymous().withHeader("Authorization", "Bearer").get("/api/v1/contacts"));
    answers.add(withKey("short").get("/api/v1/contacts")); // malformed
    answers.add(withKey("crm_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").get("/api/v1/contacts"));
    answers.add(withKey(revokedKey).get("/api/v1/contacts"));

    for (ApiResponse answer : answers) {
      assertThat(answer.status()).isEqualTo(401);
      assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer");
      assertThat(answer.contentType()).startsWith("application/problem+json");
      assertThat(answer.at("/status").asInt()).isEqualTo(401);
      assertThat(answer.text("/title")).isEqualTo("Unauthorized");
      assertThat(answer.text("/detail"))
          .isEqualTo("A valid API key is required: send it as 'Authorization: Bearer <key>'.");
    }
  }

  @Test
  void authenticationComesBeforeBodyValidation() {
    ApiResponse answer =
        anonymous().send("POST", "/api/v1/contacts", "{not json", "application/json");
    assertThat(answer.status()).isEqualTo(401);
  }

  @Test
  void schemeIsCaseInsensitive() {
    var tenant = newTenant();
    ApiClient lower = anonymous().withHeader("Authorization", "bearer " + tenant.key());
    assertThat(lower.get("/api/v1/contacts").status()).isEqualTo(200);
  }
}
