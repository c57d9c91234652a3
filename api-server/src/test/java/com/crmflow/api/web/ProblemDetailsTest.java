package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Problem details on the whole service: the answers whose subject is what reaches the database or
 * what Tomcat and the filters refuse before a controller. The controllers' own validation answers
 * are checked in their controller slices (ContactControllerTest).
 */
class ProblemDetailsTest extends ApiTest {

  private static void assertProblem(ApiResponse response, int status) {
    assertThat(response.status()).as(response.toString()).isEqualTo(status);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat(response.at("/status").asInt()).isEqualTo(status);
    assertThat(response.text("/title")).isNotBlank();
    assertThat(response.text("/detail")).isNotBlank();
  }

  private int contactCount(java.util.UUID tenantId) {
    return jdbc.sql("select count(*) from contact where tenant_id = :t")
        .param("t", tenantId)
        .query(Integer.class)
        .single();
  }

  @Test
  void wrongTypesAndUnknownFieldsAre400NamingEachField() {
    var tenant = newTenant();
    ApiResponse response =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of("email", "x@example.com", "do_not_email", "yes", "favourite_colour", "red"));
    assertProblem(response, 400);
    assertThat(response.at("/errors").toString())
        .contains("\"field\":\"do_not_email\",\"message\":\"must be true or false\"")
        .contains("\"field\":\"favourite_colour\"");
    assertThat(contactCount(tenant.id())).isZero();
  }

  @Test
  void unknownEnumValueIs400() {
    var tenant = newTenant();
    ApiResponse response =
        tenant
            .api()
            .post(
                "/api/v1/custom-fields",
                Map.of("object_type", "planet", "field_label", "X", "field_type", "text"));
    assertProblem(response, 400);
    assertThat(response.text("/errors/0/field")).isEqualTo("object_type");
  }

  @Test
  void parametersThatAreNotUtf8Are400NotAnError() {
    var tenant = newTenant();
    ApiResponse query = tenant.api().get("/api/v1/opportunities?offset=%FF");
    assertProblem(query, 400);
    assertThat(query.text("/errors/0/field")).isEqualTo("parameters");
    assertThat(query.text("/errors/0/message")).contains("percent-encoded UTF-8");

    ApiResponse form =
        tenant.api().send("POST", "/api/v1/contacts", "%FF=1", "application/x-www-form-urlencoded");
    assertProblem(form, 400);
    assertThat(form.text("/errors/0/field")).isEqualTo("parameters");
    assertThat(contactCount(tenant.id())).isZero();
  }

  @Test
  void aNulCharacterWhichTheDatabaseCannotStoreIs400NamingWhereItIs() {
    var tenant = newTenant();
    ApiResponse field =
        tenant
            .api()
            .send(
                "POST",
                "/api/v1/contacts",
                "{\"email\": \"ada@example.com\", \"first_name\": \"Ada\\u0000\"}",
                "application/json");
    assertProblem(field, 400);
    assertThat(field.text("/errors/0/field")).isEqualTo("first_name");
    assertThat(field.text("/errors/0/message")).contains("NUL character");

    ApiResponse key =
        tenant
            .api()
            .send(
                "PUT",
                "/api/sequences/" + UUID.randomUUID() + "/canvas",
                "{\"nodes\": [{\"id\": \"n\", \"data\": {\"la\\u0000bel\": 1}}], \"edges\": []}",
                "application/json");
    assertProblem(key, 400);
    assertThat(key.text("/errors/0/field")).isEqualTo("nodes.0.data.la" + (char) 0 + "bel");

    ApiResponse query = tenant.api().get("/api/v1/contacts?search=A%00da");
    assertProblem(query, 400);
    assertThat(query.text("/errors/0/field")).isEqualTo("request");
    assertThat(contactCount(tenant.id())).isZero();
  }

  @Test
  void wrongContentTypeIs415() {
    var tenant = newTenant();
    ApiResponse response =
        tenant.api().send("POST", "/api/v1/contacts", "email=x@example.com", "text/plain");
    assertProblem(response, 415);
    ApiResponse noType = tenant.api().send("POST", "/api/v1/contacts", "{}", null);
    assertThat(noType.status()).isEqualTo(415);
  }

  @Test
  void oversizedBodyIs413() {
    var tenant = newTenant();
    String huge = "{\"email\":\"big@example.com\",\"title\":\"" + "x".repeat(1_100_000) + "\"}";
    ApiResponse response = tenant.api().send("POST", "/api/v1/contacts", huge, "application/json");
    assertProblem(response, 413);
    assertThat(contactCount(tenant.id())).isZero();
  }

  @Test
  void oversizedChunkedBodyIs413() throws Exception {
    var tenant = newTenant();
    byte[] huge =
        ("{\"email\":\"big@example.com\",\"title\":\"" + "x".repeat(1_100_000) + "\"}").getBytes();
    HttpResponse<String> response = postChunked(tenant, "/api/v1/contacts", huge);
    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).contains("\"status\":413");
    assertThat(contactCount(tenant.id())).isZero();
  }
}
