package com.crmflow.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.customfield.CustomFieldTypes;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.web.Paging;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI document this service serves, linted by Redocly CLI's recommended rules (the version
 * pinned in console/package.json, installed by the console module's npm ci): any error fails the
 * build. The document is kept as target/openapi.json.
 */
class OpenApiLintTest extends ApiTest {

  private static final Path REDOCLY = Path.of("..", "console", "node_modules", ".bin", "redocly");

  @Test
  void theDocumentPassesTheRecommendedRules() throws Exception {
    ApiResponse docs = anonymous().get("/v3/api-docs");
    assertThat(docs.status()).isEqualTo(200);
    Path document = Path.of("target", "openapi.json").toAbsolutePath();
    Files.writeString(document, docs.rawBody());
    assertThat(Files.isExecutable(REDOCLY))
        .as(
            "Redocly CLI is installed by the console module (npm ci in console/, or ./mvnw -pl"
                + " console generate-resources); missing at "
                + REDOCLY.toAbsolutePath())
        .isTrue();

    Process lint =
        new ProcessBuilder(
                REDOCLY.toAbsolutePath().toString(),
                "lint",
                document.toString(),
                "--extends=recommended",
                "--format=stylish")
            .redirectErrorStream(true)
            .start();
    String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(lint.waitFor(2, TimeUnit.MINUTES)).isTrue();
    System.out.println(output);
    assertThat(lint.exitValue()).as(output).isZero();
    assertThat(output).contains("Your API description is valid");
  }

  @Test
  void everyOperationHasASummaryATagAndItsErrors() throws IOException {
    JsonNode paths = anonymous().get("/v3/api-docs").at("/paths");
    int operations = 0;
    for (String path : paths.propertyNames()) {
      for (String method : paths.get(path).propertyNames()) {
        JsonNode operation = paths.get(path).get(method);
        String name = method.toUpperCase() + " " + path;
        assertThat(operation.path("summary").asString()).as(name).isNotBlank();
        assertThat(operation.path("tags").size()).as(name).isEqualTo(1);
        assertThat(operation.path("responses").has("401")).as(name).isTrue();
        assertThat(
                operation
                    .at("/responses/401/content/application~1problem+json/schema/$ref")
                    .asString())
            .as(name)
            .isEqualTo("#/components/schemas/Problem");
        if (path.startsWith("/api/v1/") || path.startsWith("/api/sequences/")) {
          assertThat(operation.path("description").asString())
              .as(name)
              .containsAnyOf("Needs the scope `", "Any valid API key.");
          assertThat(operation.path("responses").has("403")).as(name).isTrue();
        }
        operations++;
      }
    }
    assertThat(operations).isEqualTo(90);
    assertThat(paths.at("/~1api~1v1~1contacts/get/x-required-scope").asString())
        .isEqualTo("contacts:read");
    assertThat(
            paths
                .at(
                    "/~1api~1webhooks~1automation~1{tenantId}~1{nodeId}/post/security/1/webhookSecret")
                .isArray())
        .isTrue();
  }

  /**
   * Every request and answer body is a named schema with its fields: no bare objects, but for the
   * trigger's payload, which the spec leaves free-form (custom_fields and node config are free-form
   * fields inside named schemas).
   */
  @Test
  void everyBodyIsANamedSchemaWithItsFields() {
    JsonNode document = anonymous().get("/v3/api-docs").json();
    JsonNode schemas = document.at("/components/schemas");
    JsonNode paths = document.at("/paths");
    List<String> bare = new ArrayList<>();
    int answers = 0;
    for (String path : paths.propertyNames()) {
      for (String method : paths.get(path).propertyNames()) {
        JsonNode operation = paths.get(path).get(method);
        String name = method.toUpperCase() + " " + path;
        JsonNode request = operation.at("/requestBody/content/application~1json/schema");
        if (!request.isMissingNode() && !path.startsWith("/api/webhooks/automation/")) {
          checkNamed(name + " request", request, schemas, bare);
        }
        for (String status : operation.path("responses").propertyNames()) {
          JsonNode content = operation.at("/responses/" + status + "/content");
          if (!status.startsWith("2") || content.isMissingNode()) {
            continue; // 204 and the like have no body; errors are Problems (checked above)
          }
          answers++;
          for (String type : content.propertyNames()) {
            if (!type.equals("application/json")) {
              bare.add(name + " " + status + ": answers " + type + ", not application/json");
            }
          }
          JsonNode answer = content.at("/application~1json/schema");
          if (!answer.isMissingNode()) {
            checkNamed(name + " " + status, answer, schemas, bare);
          }
        }
      }
    }
    assertThat(bare).as("bodies that are not a named schema with fields").isEmpty();
    assertThat(answers).as("operations that answer with a body").isGreaterThan(60);
    // the limits and enums the checks enforce are the documented ones
    assertThat(
            schemas
                .at("/CustomFieldCreate/properties/field_type/enum")
                .valueStream()
                .map(JsonNode::asString)
                .toList())
        .isEqualTo(CustomFieldTypes.FIELD_TYPES);
    JsonNode limit =
        paths
            .at("/~1api~1v1~1contacts/get/parameters")
            .valueStream()
            .filter(p -> p.path("name").asString().equals("limit"))
            .findFirst()
            .orElseThrow();
    assertThat(limit.at("/schema/maximum").asInt()).isEqualTo(Paging.MAX_LIMIT);
    assertThat(paths.at("/~1api~1v1~1webhooks~1subscribe/post/description").asString())
        .contains("at most 10 active subscriptions");
    assertThat(paths.at("/~1api~1v1~1custom-fields/post/description").asString())
        .contains("At most 50 fields per object type");
  }

  private static void checkNamed(
      String what, JsonNode schema, JsonNode schemas, List<String> bare) {
    String ref = schema.path("$ref").asString();
    if (!ref.startsWith("#/components/schemas/")) {
      bare.add(what + ": " + schema);
      return;
    }
    JsonNode named = schemas.path(ref.substring("#/components/schemas/".length()));
    if (named.path("properties").isEmpty()) {
      bare.add(what + ": " + ref + " has no fields");
    }
  }

  /**
   * docs/openapi.json is the document the service serves: clients are generated from it (the
   * build's own client among them, see GeneratedClientTest), so it may not drift from the code.
   * With -Dopenapi.write=true this test writes it instead.
   */
  @Test
  void theCommittedDocumentIsTheServedOne() throws IOException {
    Path committed = Path.of("..", "docs", "openapi.json");
    JsonNode served = withoutServers(anonymous().get("/v3/api-docs").json());
    if (Boolean.getBoolean("openapi.write")) {
      Files.writeString(
          committed, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(served) + "\n");
    }
    assertThat(Files.exists(committed)).as(committed.toAbsolutePath() + " exists").isTrue();
    JsonNode stored = JSON.readTree(Files.readString(committed));
    assertThat(stored)
        .as(
            "docs/openapi.json differs from /v3/api-docs; write it again with ./mvnw -pl"
                + " api-server test -Dtest=OpenApiLintTest -Dopenapi.write=true")
        .isEqualTo(served);
  }

  /** The servers list names the port of this run. */
  private static JsonNode withoutServers(JsonNode document) {
    ObjectNode copy = (ObjectNode) document.deepCopy();
    copy.remove("servers");
    return copy;
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();
}
