package com.crmflow.api.sequence;

import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
            .atMost(Duration.ofSeconds(20))
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
}
