package com.crmflow.api.flow;

import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.workflow.node.NodeSecrets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** builder_mode linear: an ordered step list stored and run as a chain canvas. */
class LinearStepsTest extends ApiTest {

  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
  }

  private static final List<Map<String, Object>> STEPS =
      List.of(
          Map.of(
              "type",
              "email",
              "label",
              "Welcome",
              "config",
              Map.of("subject", "Hi {{contact.first_name}}")),
          Map.of("type", "delay", "config", Map.of("delayHours", 0.0003)),
          Map.of("type", "email", "config", Map.of("subject", "Second")));

  @Test
  void stepsAreStoredAsAChainAndRunInOrder() {
    String id = sequence(tenant.api(), "Linear");
    ApiResponse saved =
        tenant.api().put("/api/v1/sequences/" + id + "/steps", Map.of("steps", STEPS));

    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    assertThat(saved.at("/version").asInt()).isEqualTo(1);
    assertThat(saved.at("/steps").size()).isEqualTo(3);
    assertThat(saved.at("/steps/0/id").asString()).isEqualTo("step-1");
    assertThat(saved.at("/steps/0/label").asString()).isEqualTo("Welcome");
    assertThat(saved.at("/steps/1/type").asString()).isEqualTo("delay");
    assertThat(saved.at("/steps/2/config/subject").asString()).isEqualTo("Second");
    assertThat(tenant.api().get("/api/v1/sequences/" + id + "/steps").json())
        .isEqualTo(saved.json());
    JsonNode canvas = tenant.api().get("/api/sequences/" + id + "/canvas").json();
    assertThat(canvas.toString()).contains("\"source\":\"step-1\"", "\"target\":\"step-2\"");
    assertThat(tenant.api().get("/api/v1/sequences/" + id).at("/sequence/step_count").asInt())
        .isEqualTo(3);

    assertThat(tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active")).status())
        .isEqualTo(200);
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "lin@example.com", "first_name", "Lin"))
            .text("/contact/id");
    tenant
        .api()
        .post("/api/v1/sequences/enroll", Map.of("sequence_id", id, "contact_id", contactId));
    JsonNode enrollment =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    tenant
                        .api()
                        .get("/api/v1/sequences/" + id + "/enrollments")
                        .json()
                        .at("/enrollments/0"),
                e -> "completed".equals(e.path("status").asString()));
    JsonNode run = awaitRun(tenant.api(), enrollment.get("run_id").asString());
    assertThat(run.at("/node_log").findValuesAsString("nodeId"))
        .containsExactly("step-1", "step-2", "step-3");
    JsonNode emails =
        tenant.api().get("/api/v1/outbound-emails?run_id=" + run.get("id").asString()).json();
    assertThat(emails.at("/outbound_emails").findValuesAsString("subject"))
        .containsExactlyInAnyOrder("Hi Lin", "Second");
  }

  @Test
  void badStepListsAreRefusedAndChangeNothing() {
    String id = sequence(tenant.api(), "Linear");
    tenant.api().put("/api/v1/sequences/" + id + "/steps", Map.of("steps", STEPS));

    ApiResponse condition =
        tenant
            .api()
            .put(
                "/api/v1/sequences/" + id + "/steps",
                Map.of("steps", List.of(Map.of("type", "condition"))));
    assertThat(condition.status()).isEqualTo(400);
    assertThat(condition.at("/errors/0/field").asString()).isEqualTo("steps[0].type");
    ApiResponse unknown =
        tenant
            .api()
            .put(
                "/api/v1/sequences/" + id + "/steps",
                Map.of("steps", List.of(Map.of("type", "email", "wait", 1))));
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.at("/errors/0/field").asString()).isEqualTo("steps[0].wait");
    assertThat(
            tenant
                .api()
                .put("/api/v1/sequences/" + id + "/steps", Map.of("steps", List.of()))
                .status())
        .isEqualTo(400);
    assertThat(tenant.api().get("/api/v1/sequences/" + id + "/steps").at("/version").asInt())
        .isEqualTo(1);

    String visual =
        tenant
            .api()
            .post("/api/v1/sequences", Map.of("name", "Visual", "builder_mode", "visual"))
            .text("/sequence/id");
    assertThat(
            tenant
                .api()
                .put("/api/v1/sequences/" + visual + "/steps", Map.of("steps", STEPS))
                .status())
        .isEqualTo(409);
    assertThat(newTenant().api().get("/api/v1/sequences/" + id + "/steps").status()).isEqualTo(404);
  }

  private static Map<String, Object> call(String id, String url, Map<String, Object> headers) {
    Map<String, Object> step = new LinkedHashMap<>();
    if (id != null) {
      step.put("id", id);
    }
    step.put("type", "http_request");
    step.put("config", Map.of("method", "POST", "url", url, "headers", headers));
    return step;
  }

  private String storedAuthorization(String seq, int version, String stepId) {
    return jdbc.sql(
            """
            select n -> 'data' -> 'config' -> 'headers' ->> 'Authorization'
            from canvas_version, jsonb_array_elements(nodes) n
            where sequence_id = ? and version = ? and n ->> 'id' = ?
            """)
        .param(UUID.fromString(seq))
        .param(version)
        .param(stepId)
        .query((rs, row) -> Optional.ofNullable(rs.getString(1)))
        .single()
        .orElse(null);
  }

  @Test
  void aStepKeepsItsSecretsByItsIdNeverByItsPlace() throws Exception {
    try (LocalHttpServer first = new LocalHttpServer();
        LocalHttpServer second = new LocalHttpServer()) {
      String id = sequence(tenant.api(), "Linear");
      String steps = "/api/v1/sequences/" + id + "/steps";
      ApiResponse saved =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call(null, first.url("/a"), Map.of("Authorization", "Bearer first-only")),
                          call(null, second.url("/b"), Map.of("Accept", "application/json")))));
      assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
      assertThat(saved.at("/steps").findValuesAsString("id")).containsExactly("step-1", "step-2");
      String sealed = storedAuthorization(id, 1, "step-1");
      assertThat(sealed).startsWith(NodeSecrets.SEALED_PREFIX);

      // swapped by place, without ids: the mask would land on the second host's step
      ApiResponse byPlace =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call(null, second.url("/b"), Map.of("Accept", "application/json")),
                          call(null, first.url("/a"), Map.of("Authorization", NodeSecrets.MASK)))));
      assertThat(byPlace.status()).isEqualTo(400);
      assertThat(byPlace.at("/errors/0/field").asString())
          .isEqualTo("steps[1].config.headers.Authorization");
      assertThat(byPlace.toString()).contains("this step has no id");
      // another step's id, or its own id with another host
      ApiResponse otherId =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call(
                              "step-2",
                              second.url("/b"),
                              Map.of("Authorization", NodeSecrets.MASK)))));
      assertThat(otherId.status()).isEqualTo(400);
      assertThat(otherId.toString()).contains("nodes.step-2.data.config.headers.Authorization");
      ApiResponse moved =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call(
                              "step-1",
                              second.url("/a"),
                              Map.of("Authorization", NodeSecrets.MASK)))));
      assertThat(moved.status()).isEqualTo(400);
      assertThat(moved.toString()).contains("nodes.step-1.data.config.headers.Authorization");
      ApiResponse twice =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call("step-1", first.url("/a"), Map.of()),
                          call("step-1", second.url("/b"), Map.of()))));
      assertThat(twice.status()).isEqualTo(400);
      assertThat(twice.at("/errors/0/field").asString()).isEqualTo("steps[1].id");
      assertThat(tenant.api().get(steps).at("/version").asInt()).isEqualTo(1);

      // swapped with their ids: each keeps its own; a new step takes a free id
      ApiResponse swapped =
          tenant
              .api()
              .put(
                  steps,
                  Map.of(
                      "steps",
                      List.of(
                          call("step-2", second.url("/b"), Map.of("Accept", "application/json")),
                          call(
                              "step-1", first.url("/a"), Map.of("Authorization", NodeSecrets.MASK)),
                          Map.of("type", "delay", "config", Map.of("delayHours", 0.0003)))));
      assertThat(swapped.status()).as(swapped.toString()).isEqualTo(200);
      assertThat(swapped.at("/steps").findValuesAsString("id"))
          .containsExactly("step-2", "step-1", "step-3");
      assertThat(storedAuthorization(id, 2, "step-1")).isEqualTo(sealed);
      assertThat(storedAuthorization(id, 2, "step-2")).isNull();

      assertThat(tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active")).status())
          .isEqualTo(200);
      String contactId =
          tenant
              .api()
              .post("/api/v1/contacts", Map.of("email", "ids@example.com"))
              .text("/contact/id");
      tenant
          .api()
          .post("/api/v1/sequences/enroll", Map.of("sequence_id", id, "contact_id", contactId));
      await().atMost(Patience.EVENTUALLY).until(() -> first.received("/a").size() == 1);
      assertThat(first.received("/a").get(0).header("Authorization"))
          .isEqualTo("Bearer first-only");
      assertThat(second.received("/b")).singleElement();
      assertThat(second.received("/b").get(0).header("Authorization")).isNull();
    }
  }
}
