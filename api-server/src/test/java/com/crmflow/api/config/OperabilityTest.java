package com.crmflow.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.embedded.EmbeddedInfrastructure;
import com.crmflow.api.embedded.TemporalDevServer;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.workflow.CrmSearchAttributes;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;

class OperabilityTest extends ApiTest {

  @Autowired private WorkflowServiceStubs serviceStubs;
  @Autowired private Environment environment;

  @Autowired
  @Qualifier(EmbeddedInfrastructure.TEMPORAL_BEAN)
  private TemporalDevServer embeddedTemporal;

  @Test
  void healthReportsDatabaseAndTemporal() {
    ApiResponse health = anonymous().get("/actuator/health");
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.text("/status")).isEqualTo("UP");
    assertThat(health.text("/components/db/status")).isEqualTo("UP");
    assertThat(health.text("/components/temporal/status")).isEqualTo("UP");
    // statuses only: an anonymous caller learns nothing of the database or the server
    assertThat(health.at("/components/db/details").isMissingNode()).isTrue();
    assertThat(health.rawBody()).doesNotContain("PostgreSQL", "validationQuery", "127.0.0.1");
    assertThat(anonymous().get("/actuator/health/liveness").text("/status")).isEqualTo("UP");
  }

  @Test
  void managementEndpointsBeyondHealthTakeTheAdminToken() {
    String tenantKey = newTenant().key();
    for (String path :
        List.of(
            "/actuator",
            "/actuator/prometheus",
            "/actuator/metrics",
            "/actuator/metrics/jvm.memory.used",
            "/actuator/info")) {
      for (ApiResponse refused :
          List.of(
              anonymous().get(path),
              withKey(tenantKey).get(path),
              withKey(ADMIN_TOKEN + "x").get(path),
              anonymous().withHeader("Authorization", ADMIN_TOKEN).get(path))) {
        assertThat(refused.status()).as(path).isEqualTo(401);
        assertThat(refused.contentType()).as(path).startsWith("application/problem+json");
        assertThat(refused.header("WWW-Authenticate")).as(path).isEqualTo("Bearer");
        assertThat(refused.text("/detail")).as(path).contains("admin token");
        assertThat(refused.json().has("measurements")).as(path).isFalse();
        assertThat(refused.json().has("names")).as(path).isFalse();
        assertThat(refused.rawBody()).as(path).doesNotContain("jvm_memory", "_links");
      }
      assertThat(admin().get(path).status()).as(path).isEqualTo(200);
    }
    assertThat(admin().get("/actuator/metrics").at("/names").toString())
        .contains("jvm.memory.used");
    // kept as security events, as the admin API's refusals are
    assertThat(
            jdbc.sql(
                    """
                    select reason from security_event
                    where path = '/actuator/info' and actor = 'admin' and status = 401
                    order by id desc limit 4
                    """)
                .query(String.class)
                .list())
        .containsExactlyInAnyOrder(
            "no Authorization header",
            "a wrong admin token",
            "a wrong admin token",
            "a wrong admin token");
  }

  @Test
  void theEmbeddedTemporalIsADevServerChildProcessWithItsUiAndStateInTheDataDirectory()
      throws Exception {
    TemporalDevServer server = embeddedTemporal;
    String target = environment.getProperty("spring.temporal.connection.target");
    assertThat(serviceStubs.getOptions().getTarget()).isEqualTo(target).isEqualTo(server.target());
    assertThat(serviceStubs.healthCheck().getStatus().name()).isEqualTo("SERVING");

    ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
    assertThat(process.parent().map(ProcessHandle::pid)).contains(ProcessHandle.current().pid());
    assertThat(process.info().arguments().map(List::of).orElseThrow())
        .containsSubsequence("server", "start-dev")
        .contains(server.settings().database().toString());
    Path dataDir = Path.of(environment.getProperty("crm.data-dir"));
    assertThat(server.settings().database())
        .isEqualTo(dataDir.resolve("temporal/temporal.db").toAbsolutePath().normalize())
        .exists();
    assertThat(server.settings().logFile()).exists();

    HttpResponse<String> ui =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.uiUrl())).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(ui.statusCode()).isEqualTo(200);
    assertThat(ui.body()).contains("<html");
    assertThat(environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL))
        .isEqualTo(server.uiUrl());
  }

  @Test
  void theNamespaceKnowsTheServicesSearchAttributes() {
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder()
                .setChannel(serviceStubs.getRawChannel())
                .validateAndBuildWithDefaults());
    try {
      var attributes =
          operator
              .blockingStub()
              .listSearchAttributes(
                  ListSearchAttributesRequest.newBuilder().setNamespace("default").build())
              .getCustomAttributesMap();
      for (var key : CrmSearchAttributes.ALL) {
        assertThat(attributes)
            .containsEntry(key.getName(), IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD);
      }
    } finally {
      operator.shutdown();
    }
  }

  /** The embedded PostgreSQL library's defaults are for throwaway databases; ours is not one. */
  @Test
  void theEmbeddedDatabaseCommitsToDiskBeforeACommitReturns() {
    assertThat(jdbc.sql("show fsync").query(String.class).single()).isEqualTo("on");
    assertThat(jdbc.sql("show synchronous_commit").query(String.class).single()).isEqualTo("on");
  }

  @Test
  void prometheusMetricsAreServed() {
    newTenant().api().get("/api/v1/contacts");
    ApiResponse metrics = admin().get("/actuator/prometheus");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.rawBody())
        .contains("jvm_memory_used_bytes")
        .contains("http_server_requests");
  }

  @Test
  void theConsoleIsServedWithASecurityPolicyThatForbidsFraming() {
    for (String path : List.of("/console/", "/console/index.html")) {
      ApiResponse page = anonymous().get(path);
      String policy = page.header("Content-Security-Policy");
      assertThat(policy)
          .as(path)
          .contains("script-src 'self'", "object-src 'none'", "base-uri 'self'")
          .contains("frame-ancestors 'none'")
          .doesNotContain("unsafe-eval", "unsafe-inline");
      assertThat(policy.replaceAll(".*script-src ([^;]*).*", "$1")).isEqualTo("'self'");
      assertThat(page.header("X-Frame-Options")).as(path).isEqualTo("DENY");
      assertThat(page.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
      assertThat(page.header("Referrer-Policy")).as(path).isEqualTo("no-referrer");
    }
  }

  @Test
  void apiAnswersAreNeverSniffedRefusalsIncluded() {
    var tenant = newTenant();
    for (ApiResponse answer :
        List.of(
            tenant.api().get("/api/v1/contacts"),
            tenant.api().get("/api/v1/contacts/" + java.util.UUID.randomUUID()),
            anonymous().get("/api/v1/contacts"),
            anonymous().get("/actuator/prometheus"),
            anonymous().get("/actuator/health"),
            admin().get("/admin/v1/tenants"))) {
      assertThat(answer.header("X-Content-Type-Options"))
          .as(answer.toString())
          .isEqualTo("nosniff");
      assertThat(answer.header("Referrer-Policy")).as(answer.toString()).isEqualTo("no-referrer");
      // the console's policy is the console's: the API's JSON needs none of it
      assertThat(answer.header("Content-Security-Policy")).isNull();
    }
  }

  @Test
  void openApiDocumentListsTheEndpoints() {
    ApiResponse docs = anonymous().get("/v3/api-docs");
    assertThat(docs.status()).isEqualTo(200);
    assertThat(docs.at("/paths").has("/api/v1/contacts")).isTrue();
    assertThat(docs.at("/paths").has("/api/v1/custom-fields")).isTrue();
    assertThat(docs.at("/components/securitySchemes/apiKey/scheme").asString()).isEqualTo("bearer");
    JsonNode createDeal = docs.at("/paths/~1api~1v1~1opportunities/post/parameters");
    assertThat(createDeal.toString()).contains("\"name\":\"Idempotency-Key\"");
    // the caller is the API key's, never a parameter a client could set
    assertThat(docs.at("/paths").toString()).doesNotContain("\"name\":\"caller\"");
    JsonNode trigger =
        docs.at("/paths/~1api~1webhooks~1automation~1{tenantId}~1{nodeId}/post/parameters");
    assertThat(trigger.toString()).doesNotContain("A repeat of this request with the same key");
    JsonNode enrollBody =
        docs.at(
            "/paths/~1api~1v1~1sequences~1enroll/post/requestBody/content/application~1json/schema");
    // a body read as a JSON tree is documented by the record of its fields
    assertThat(enrollBody.at("/$ref").asString()).isEqualTo("#/components/schemas/EnrollmentInput");
    assertThat(docs.at("/components/schemas/EnrollmentInput/required").toString())
        .contains("sequence_id");
  }

  @Test
  void recordBodiesAreDocumentedFromTheFieldsTheApiValidates() {
    JsonNode docs = anonymous().get("/v3/api-docs").json();
    JsonNode schemas = docs.at("/components/schemas");
    for (String[] operation :
        new String[][] {
          {"/api/v1/contacts", "post", "ContactUpsert"},
          {"/api/v1/contacts/{id}", "patch", "ContactPatch"},
          {"/api/v1/accounts", "post", "AccountCreate"},
          {"/api/v1/accounts/{id}", "patch", "AccountPatch"},
          {"/api/v1/opportunities", "post", "OpportunityCreate"},
          {"/api/v1/opportunities/{id}", "patch", "OpportunityPatch"},
          {"/api/v1/tasks", "post", "TaskCreate"},
          {"/api/v1/tasks/{id}", "patch", "TaskPatch"},
          {"/api/v1/notes", "post", "NoteCreate"},
          {"/api/v1/email-templates", "post", "EmailTemplateCreate"},
          {"/api/v1/email-templates/{id}", "patch", "EmailTemplatePatch"},
          {"/api/v1/conversations", "post", "ConversationCreate"},
          {"/api/v1/conversations/{id}", "patch", "ConversationPatch"},
          {"/api/v1/sequences", "post", "SequenceCreate"},
          {"/api/v1/sequences/{id}", "patch", "SequencePatch"}
        }) {
      JsonNode schema =
          docs.path("paths")
              .path(operation[0])
              .path(operation[1])
              .at("/requestBody/content/application~1json/schema");
      assertThat(schema.at("/$ref").asString())
          .as("%s %s", operation[1], operation[0])
          .isEqualTo("#/components/schemas/" + operation[2]);
      assertThat(schemas.path(operation[2]).at("/properties").size()).as(operation[2]).isPositive();
    }

    JsonNode upsert = schemas.path("ContactUpsert");
    assertThat(upsert.at("/required").toString()).isEqualTo("[\"email\"]");
    assertThat(upsert.at("/additionalProperties").asBoolean(true)).isFalse();
    assertThat(upsert.at("/properties/email/format").asString()).isEqualTo("email");
    assertThat(upsert.at("/properties/first_name/type").toString())
        .isEqualTo("[\"string\",\"null\"]");
    assertThat(upsert.at("/properties/first_name/maxLength").asInt()).isEqualTo(255);
    assertThat(upsert.at("/properties/do_not_email/type").asString()).isEqualTo("boolean");
    assertThat(upsert.at("/properties/create_opportunity/required").toString())
        .isEqualTo("[\"name\"]");
    assertThat(upsert.at("/properties/custom_fields/type").asString()).isEqualTo("object");
    assertThat(schemas.at("/ContactPatch/required").isMissingNode()).isTrue();
    assertThat(schemas.at("/ContactPatch/properties/create_account").isMissingNode()).isTrue();
    assertThat(schemas.at("/OpportunityCreate/properties/probability/maximum").asInt())
        .isEqualTo(100);
    assertThat(schemas.at("/TaskCreate/properties/status/enum").toString())
        .isEqualTo("[\"open\",\"completed\",\"cancelled\"]");
    assertThat(schemas.at("/TaskCreate/properties/due_date/format").asString()).isEqualTo("date");
    assertThat(schemas.at("/ConversationCreate/properties/channel/enum").toString())
        .isEqualTo("[\"email\",\"sms\",\"chat\",\"whatsapp\",null]");
    assertThat(schemas.at("/ConversationPatch/properties/tags/items/maxLength").asInt())
        .isEqualTo(50);
  }
}
