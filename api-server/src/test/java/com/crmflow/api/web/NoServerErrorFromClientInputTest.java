package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Nothing a client sends gets a 5xx, and every error is a problem. Sweeps: every operation of the
 * OpenAPI document with unknown, malformed and real ids and odd bodies; and every config key of
 * every action node with odd values, through save, validate and activate. The first catches, for
 * example, a custom field without field_type; the second a condition or filter without operator; a
 * NUL character and parameters that are not UTF-8 are among the inputs too.
 */
class NoServerErrorFromClientInputTest extends ApiTest {

  private static final List<String> BODIES =
      List.of(
          "null",
          "[]",
          "\"text\"",
          "0",
          "{}",
          "{\"a\":",
          "{\"name\": null, \"status\": \"bogus\", \"id\": \"not-a-uuid\"}",
          "{\"name\": 5, \"email\": [], \"limit\": -5}",
          "{\"data\": {\"config\": []}, \"nodes\": \"x\", \"edges\": 5}",
          "{\"custom_fields\": {\"x\": {\"y\": [1, null]}}, \"value\": 1e308}",
          // beyond a double's range: Infinity, which neither jsonb nor a numeric column takes
          "{\"value\": 1e400, \"probability\": -1e400, \"position\": {\"x\": 1e400, \"y\": 0}}",
          // an integer of 400 digits: a BigInteger, past a double's and a long's range
          "{\"value\": 1" + "0".repeat(400) + ", \"limit\": 1" + "0".repeat(400) + "}",
          // a number as text past the database's decimals, and years of more than four digits
          "{\"value\": \"1e-20000\", \"due_date\": \"+5874898-01-01\","
              + " \"closed_at\": \"+300000-01-01T00:00:00Z\"}",
          // a NUL, which PostgreSQL cannot store, in a value and in a key
          "{\"name\": \"a\\u0000b\", \"email\": \"a\\u0000@example.com\", \"x\\u0000\": 1}");

  private static final List<String> QUERIES =
      List.of(
          "",
          "?limit=-1",
          "?limit=abc&offset=-5",
          "?status=zzz&sequence_id=nope",
          // a NUL in a value, and bytes that are not UTF-8
          "?search=a%00b&email=a%00b&status=a%00b",
          "?status=%FF");

  private static final List<Object> ODD_VALUES =
      Arrays.asList(
          null, "", "x", 0, -1, 1e308, true, List.of(), Map.of(), "{{", "{{http_request_0.body}}");

  private ApiClient api;
  private final Map<String, String> realIds = new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();
  private int calls;

  @BeforeEach
  void setUp() {
    var tenant = newTenant();
    // a key without the per-minute limit getting in the way of the sweep
    api = keyFor(tenant.id(), List.of("*"), 1_000_000);
    realIds.put("sequence", SequenceSupport.automation(api, "sweep " + UUID.randomUUID()));
    realIds.put(
        "contact",
        api.post("/api/v1/contacts", Map.of("email", UUID.randomUUID() + "@example.com"))
            .text("/contact/id"));
    realIds.put(
        "account", api.post("/api/v1/accounts", Map.of("name", "Sweep")).text("/account/id"));
    realIds.put(
        "conversation",
        api.post("/api/v1/conversations", Map.of("contact_id", realIds.get("contact")))
            .text("/conversation_id"));
    realIds.put(
        "opportunit",
        api.post("/api/v1/opportunities", Map.of("name", "Sweep")).text("/opportunity/id"));
  }

  /**
   * Every field a PATCH's documented body names, set to null and to a number beyond a double's
   * range, on a real record: cleared, kept or refused with a 400, never a 5xx (a NOT NULL column
   * given null was one).
   */
  @Test
  void noPatchOfOneFieldToNullOrAnOutOfRangeNumberAnswersWithA5xx() {
    JsonNode docs = anonymous().get("/v3/api-docs").json();
    List<String> patched = new ArrayList<>();
    docs.at("/paths")
        .properties()
        .forEach(
            path -> {
              JsonNode patch = path.getValue().get("patch");
              if (patch == null) {
                return;
              }
              JsonNode schema =
                  resolve(docs, patch.at("/requestBody/content/application~1json/schema"));
              String target = path.getKey().replaceAll("\\{[^}]+}", realId(path.getKey()));
              schema
                  .path("properties")
                  .propertyNames()
                  .forEach(
                      field -> {
                        patched.add(path.getKey() + " " + field);
                        check("PATCH", target, "{\"" + field + "\": null}", "application/json");
                        check("PATCH", target, "{\"" + field + "\": 1e400}", "application/json");
                      });
            });
    assertThat(patched).as("PATCH fields read from the OpenAPI document").hasSizeGreaterThan(40);
    assertThat(failures).as(calls + " calls").isEmpty();
  }

  private static JsonNode resolve(JsonNode docs, JsonNode schema) {
    String ref = schema.path("$ref").asString("");
    return ref.startsWith("#/") ? docs.at(ref.substring(1)) : schema;
  }

  @Test
  void optionsAndAMultipartContentTypeWithoutBoundaryAreAnsweredNotFailed() {
    ApiResponse options = api.send("OPTIONS", "/api/v1/contacts", null, null);
    assertThat(options.status()).as(options.toString()).isEqualTo(200);
    assertThat(options.header("Allow")).contains("GET", "POST");
    assertThat(
            anonymous()
                .send("OPTIONS", "/api/v1/contacts/" + UUID.randomUUID(), null, null)
                .status())
        .isLessThan(500);

    ApiResponse delete =
        api.send(
            "DELETE", "/api/v1/email-templates/" + UUID.randomUUID(), null, "multipart/form-data");
    assertThat(delete.status()).as(delete.toString()).isEqualTo(404);
    assertThat(delete.contentType()).startsWith("application/problem+json");
    ApiResponse post = api.send("POST", "/api/v1/contacts", "--x\r\n", "multipart/form-data");
    assertThat(post.status()).as(post.toString()).isEqualTo(415);
    assertThat(post.contentType()).startsWith("application/problem+json");
  }

  @Test
  void noOperationAnswersOddIdsOrBodiesWithA5xx() {
    JsonNode paths = anonymous().get("/v3/api-docs").at("/paths");
    List<String[]> operations = new ArrayList<>();
    paths
        .properties()
        .forEach(
            path ->
                path.getValue()
                    .propertyNames()
                    .forEach(method -> operations.add(new String[] {method, path.getKey()})));
    // deletes last, so that the real records live through the rest of the sweep
    operations.sort(Comparator.comparing(op -> op[0].equals("delete")));
    for (String[] operation : operations) {
      String method = operation[0].toUpperCase();
      for (String id : List.of(UUID.randomUUID().toString(), "not-a-uuid", realId(operation[1]))) {
        String path = operation[1].replaceAll("\\{[^}]+}", id);
        if (method.equals("GET") || method.equals("DELETE")) {
          QUERIES.forEach(query -> check(method, path + query, null, null));
        } else {
          BODIES.forEach(body -> check(method, path, body, "application/json"));
          check(method, path, "{}", "text/plain");
          check(method, path, "%FF=1", "application/x-www-form-urlencoded");
        }
      }
    }
    assertThat(operations).as("the OpenAPI document was read").hasSizeGreaterThan(60);
    assertThat(failures).as(calls + " calls").isEmpty();
  }

  @Test
  void noNodeConfigAnswersWithA5xxOnSaveValidateOrActivate() {
    Map<String, Map<String, Object>> configs = new LinkedHashMap<>();
    configs.put("email", Map.of("subject", "Hi", "body", "Hello"));
    configs.put("delay", Map.of("delayDays", 1));
    configs.put("condition", Map.of("field", "{{trigger.x}}", "operator", "equals", "value", "1"));
    configs.put(
        "http_request",
        Map.of("method", "POST", "url", "https://example.com/x", "timeoutSeconds", 10));
    configs.put("chat_message", Map.of("channel", "#a", "messageTemplate", "hi"));
    configs.put(
        "crm_update", Map.of("entityType", "contact", "fieldMappings", Map.of("first_name", "x")));
    configs.put(
        "create_record", Map.of("entityType", "task", "fieldMappings", Map.of("title", "x")));
    configs.put(
        "data_transform",
        Map.of(
            "transformType",
            "filter",
            "mappings",
            Map.of("source", "trigger", "field", "x", "operator", "equals", "value", 1)));
    String sequence = realIds.get("sequence");
    configs.forEach(
        (type, valid) -> {
          for (String key : valid.keySet()) {
            for (Object odd : ODD_VALUES) {
              Map<String, Object> config = new LinkedHashMap<>(valid);
              config.put(key, odd);
              saveValidateAndActivate(sequence, type, config);
            }
            Map<String, Object> without = new LinkedHashMap<>(valid);
            without.remove(key);
            saveValidateAndActivate(sequence, type, without);
          }
        });
    assertThat(failures).as(calls + " calls").isEmpty();
  }

  private void saveValidateAndActivate(String sequence, String type, Map<String, Object> config) {
    Map<String, Object> trigger =
        Map.of(
            "id",
            "in",
            "type",
            "webhook_trigger",
            "position",
            Map.of("x", 0, "y", 0),
            "data",
            Map.of("label", "in", "config", Map.of()));
    Map<String, Object> node =
        Map.of(
            "id",
            "n",
            "type",
            type,
            "position",
            Map.of("x", 1, "y", 0),
            "data",
            Map.of("label", "n", "config", config));
    String canvas =
        ApiClient.json(
            Map.of(
                "nodes",
                List.of(trigger, node),
                "edges",
                List.of(Map.of("id", "e", "source", "in", "target", "n", "label", "true"))));
    check("PUT", "/api/sequences/" + sequence + "/canvas", canvas, "application/json");
    check("POST", "/api/sequences/" + sequence + "/validate", "{}", "application/json");
    check("PATCH", "/api/v1/sequences/" + sequence, "{\"status\": \"active\"}", "application/json");
    check("PATCH", "/api/v1/sequences/" + sequence, "{\"status\": \"paused\"}", "application/json");
  }

  /** A real id of the kind the path names (its own records), else an unknown one. */
  private String realId(String path) {
    return realIds.entrySet().stream()
        .filter(kind -> path.contains(kind.getKey()))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(UUID.randomUUID().toString());
  }

  private void check(String method, String path, String body, String contentType) {
    calls++;
    ApiResponse response = api.send(method, path, body, contentType);
    String type = response.contentType();
    boolean problem =
        response.status() < 400 || type != null && type.startsWith("application/problem+json");
    if (response.status() >= 500 || !problem) {
      failures.add(method + " " + path + " " + body + " → " + response);
    }
  }
}
