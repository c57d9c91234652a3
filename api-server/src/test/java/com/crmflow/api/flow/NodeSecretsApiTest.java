package com.crmflow.api.flow;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.RunHistory;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.node.NodeSecrets;
import io.temporal.client.WorkflowClient;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Secrets of canvas nodes are write-only: a webhook_trigger's secretToken and an http_request's
 * credential headers show as the mask, the mask written back keeps them, and they are stored and
 * handed to Temporal sealed.
 */
@SuppressWarnings("unchecked")
@ExtendWith(OutputCaptureExtension.class)
class NodeSecretsApiTest extends ApiTest {

  private static final String TOKEN = "whsec-" + UUID.randomUUID();
  private static final String BEARER = "Bearer sk-live-" + UUID.randomUUID();
  private static final String API_KEY = "key-" + UUID.randomUUID();

  @Autowired private WorkflowClient temporal;

  private final JsonMapper json = new JsonMapper();

  private Map<String, Object> flow(String hook, String url) {
    Map<String, Object> headers = new LinkedHashMap<>();
    headers.put("Authorization", BEARER);
    headers.put("X-Api-Key", API_KEY);
    headers.put("X-Run-Token", "t-{{trigger.token}}");
    headers.put("Content-Type", "application/json");
    Map<String, Object> flow =
        chain(hook, node("call", "http_request", http("POST", url, "headers", headers)));
    List<Map<String, Object>> nodes =
        new ArrayList<>((List<Map<String, Object>>) flow.get("nodes"));
    nodes.set(0, node(hook, "webhook_trigger", Map.of("secretToken", TOKEN)));
    return Map.of("nodes", nodes, "edges", flow.get("edges"));
  }

  /** A new automation whose canvas (version 1) holds the flow's secrets. */
  private String savedFlow(TenantClient tenant) {
    String seq = SequenceSupport.automation(tenant.api(), "Secrets");
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + seq + "/canvas",
                flow(SequenceSupport.uniqueId("hook"), "https://example.com/in"));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    return seq;
  }

  @Test
  void secretsShowAsTheMaskInEveryRead() {
    var tenant = newTenant();
    String seq = savedFlow(tenant);
    String base = "/api/sequences/" + seq;

    List<JsonNode> shown =
        List.of(
            tenant.api().get(base + "/canvas").at("/canvas/nodes"),
            tenant.api().get(base + "/nodes").at("/nodes"),
            tenant.api().get(base + "/versions/1").at("/canvas/nodes"));
    for (JsonNode nodes : shown) {
      assertThat(nodes.get(0).at("/data/config/secretToken").asString())
          .isEqualTo(NodeSecrets.MASK);
      JsonNode headers = nodes.get(1).at("/data/config/headers");
      assertThat(headers.get("Authorization").asString()).isEqualTo(NodeSecrets.MASK);
      assertThat(headers.get("X-Api-Key").asString()).isEqualTo(NodeSecrets.MASK);
      assertThat(headers.get("X-Run-Token").asString()).isEqualTo(NodeSecrets.MASK);
      assertThat(headers.get("Content-Type").asString()).isEqualTo("application/json");
      assertThat(nodes.toString()).doesNotContain(TOKEN, BEARER, API_KEY, "sealed:");
    }
    ApiResponse patched =
        tenant.api().patch(base + "/nodes/call", Map.of("data", Map.of("label", "Renamed")));
    assertThat(patched.text("/node/data/config/headers/Authorization")).isEqualTo(NodeSecrets.MASK);

    String stored =
        jdbc.sql("select string_agg(nodes::text, ' ') from canvas_version where sequence_id = ?")
            .param(UUID.fromString(seq))
            .query(String.class)
            .single();
    assertThat(stored).doesNotContain(TOKEN, BEARER, API_KEY, "t-{{trigger.token}}");
    assertThat(stored).contains(NodeSecrets.SEALED_PREFIX);
  }

  @Test
  void whatGetShowsCanBePutBackAndTheSecretsStillWork() throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer receiver = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      String seq = SequenceSupport.activeAutomation(tenant.api(), flow(hook, receiver.url("/in")));
      String base = "/api/sequences/" + seq;
      JsonNode canvas = tenant.api().get(base + "/canvas").at("/canvas");
      ApiResponse putBack =
          tenant
              .api()
              .put(
                  base + "/canvas",
                  Map.of("nodes", canvas.get("nodes"), "edges", canvas.get("edges")));
      assertThat(putBack.status()).as(putBack.toString()).isEqualTo(200);
      assertThat(putBack.at("/version").asInt()).isEqualTo(2);

      String trigger = "/api/webhooks/automation/" + tenant.id() + "/" + hook;
      assertThat(anonymous().post(trigger, Map.of()).status()).isEqualTo(401);
      assertThat(
              anonymous()
                  .withHeader("X-Webhook-Secret", NodeSecrets.MASK)
                  .post(trigger, Map.of())
                  .status())
          .isEqualTo(401);
      ApiResponse accepted =
          anonymous().withHeader("X-Webhook-Secret", TOKEN).post(trigger, Map.of("token", "abc"));
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      String runId = accepted.text("/runId");
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), runId);
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(run.get("canvas_version").asInt()).isEqualTo(2);

      LocalHttpServer.Received call = receiver.received("/in").get(0);
      assertThat(call.header("Authorization")).isEqualTo(BEARER);
      assertThat(call.header("X-Api-Key")).isEqualTo(API_KEY);
      assertThat(call.header("X-Run-Token")).isEqualTo("t-abc");

      // what Temporal keeps (and its UI shows) holds the secrets sealed, never in plain text:
      // the run's input, and the request in the local activity's marker or the activity's input
      String payloads = RunHistory.payloads(temporal, runId);
      assertThat(payloads).contains(NodeSecrets.SEALED_PREFIX, "\"{{trigger.token}}\":\"abc\"");
      assertThat(payloads).doesNotContain(TOKEN, BEARER, API_KEY);
    }
  }

  @Test
  void theMaskKeepsASecretAndANewValueReplacesIt() {
    var tenant = newTenant();
    String seq = savedFlow(tenant);
    String base = "/api/sequences/" + seq;
    String sealedBefore = storedAuthorization(seq, 1);

    Map<String, Object> masked = new LinkedHashMap<>();
    masked.put("Authorization", NodeSecrets.MASK);
    masked.put("X-Api-Key", "key-rotated");
    ApiResponse patched =
        tenant
            .api()
            .patch(
                base + "/nodes/call", Map.of("data", Map.of("config", Map.of("headers", masked))));
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    assertThat(storedAuthorization(seq, 2)).isEqualTo(sealedBefore);
    String storedKey =
        jdbc.sql(
                """
                select n -> 'data' -> 'config' -> 'headers' ->> 'X-Api-Key'
                from canvas_version, jsonb_array_elements(nodes) n
                where sequence_id = ? and version = 2 and n ->> 'id' = 'call'
                """)
            .param(UUID.fromString(seq))
            .query(String.class)
            .single();
    assertThat(storedKey).startsWith(NodeSecrets.SEALED_PREFIX).doesNotContain("key-rotated");
  }

  @Test
  void aMaskWithNothingStoredOrAForgedSealedValueIsRefusedAndChangesNothing() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Secrets");
    String base = "/api/sequences/" + seq;
    ApiResponse mask =
        tenant
            .api()
            .put(
                base + "/canvas",
                chain(
                    "in-" + UUID.randomUUID(),
                    node(
                        "call",
                        "http_request",
                        http(
                            "GET",
                            "https://example.com",
                            "headers",
                            Map.of("Authorization", NodeSecrets.MASK)))));
    assertThat(mask.status()).isEqualTo(400);
    assertThat(mask.contentType()).startsWith("application/problem+json");
    assertThat(mask.toString()).contains("nodes.call.data.config.headers.Authorization", "mask");

    ApiResponse forged =
        tenant
            .api()
            .post(
                base + "/nodes",
                node(
                    null,
                    "webhook_trigger",
                    Map.of("secretToken", NodeSecrets.SEALED_PREFIX + "AAAA")));
    assertThat(forged.status()).isEqualTo(400);
    assertThat(forged.toString()).contains("secretToken", NodeSecrets.SEALED_PREFIX);
    assertThat(tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt())
        .isZero();
  }

  private static List<String> fields(ApiResponse problem) {
    return problem.at("/errors").findValuesAsString("field");
  }

  private int currentVersion(TenantClient tenant, String seq) {
    return tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt();
  }

  private ApiResponse fire(TenantClient tenant, String hook, String token) {
    return anonymous()
        .withHeader("X-Webhook-Secret", TOKEN)
        .post("/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("token", token));
  }

  @Test
  void aKeptSecretDoesNotFollowAChangedOriginOrMethod() throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer origin = new LocalHttpServer();
        LocalHttpServer elsewhere = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      String seq = SequenceSupport.activeAutomation(tenant.api(), flow(hook, origin.url("/in")));
      String base = "/api/sequences/" + seq;
      String sealed = storedAuthorization(seq, 1);
      String url = origin.url("/in");

      // PATCH merges config: the stored (sealed) headers stay, only the url or method changes
      List<Map<String, Object>> changes =
          List.of(
              Map.of("url", elsewhere.url("/in")),
              Map.of("url", url.replace("127.0.0.1", "localhost")),
              Map.of("url", url.replace("http://", "https://")),
              Map.of("method", "PUT"));
      for (Map<String, Object> change : changes) {
        ApiResponse refused =
            tenant.api().patch(base + "/nodes/call", Map.of("data", Map.of("config", change)));
        assertThat(refused.status()).as(change + " " + refused).isEqualTo(400);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(fields(refused))
            .contains(
                "nodes.call.data.config.headers.Authorization",
                "nodes.call.data.config.headers.X-Api-Key",
                "nodes.call.data.config.headers.X-Run-Token");
        assertThat(refused.toString()).contains("send the secret itself again");
      }
      // the whole canvas as GET shows it, with the url changed
      JsonNode canvas = tenant.api().get(base + "/canvas").at("/canvas");
      Map<String, Object> edited = json.convertValue(canvas, Map.class);
      List<Map<String, Object>> nodes = (List<Map<String, Object>>) edited.get("nodes");
      Map<String, Object> data = (Map<String, Object>) nodes.get(1).get("data");
      ((Map<String, Object>) data.get("config")).put("url", elsewhere.url("/in"));
      ApiResponse put =
          tenant.api().put(base + "/canvas", Map.of("nodes", nodes, "edges", edited.get("edges")));
      assertThat(put.status()).as(put.toString()).isEqualTo(400);
      assertThat(fields(put)).contains("nodes.call.data.config.headers.Authorization");

      assertThat(currentVersion(tenant, seq)).isEqualTo(1);
      assertThat(storedAuthorization(seq, 1)).isEqualTo(sealed);

      ApiResponse accepted = fire(tenant, hook, "abc");
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), accepted.text("/runId"));
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(origin.received("/in")).singleElement();
      assertThat(origin.received("/in").get(0).header("Authorization")).isEqualTo(BEARER);
      assertThat(elsewhere.received()).isEmpty();

      // another path on the same origin keeps the secret
      ApiResponse samePlace =
          tenant
              .api()
              .patch(
                  base + "/nodes/call",
                  Map.of("data", Map.of("config", Map.of("url", origin.url("/other")))));
      assertThat(samePlace.status()).as(samePlace.toString()).isEqualTo(200);
      assertThat(storedAuthorization(seq, 2)).isEqualTo(sealed);

      // the secret sent again goes to the new host, and only it
      ApiResponse resent =
          tenant
              .api()
              .patch(
                  base + "/nodes/call",
                  Map.of(
                      "data",
                      Map.of(
                          "config",
                          Map.of(
                              "url",
                              elsewhere.url("/in"),
                              "headers",
                              Map.of("Authorization", "Bearer for-elsewhere")))));
      assertThat(resent.status()).as(resent.toString()).isEqualTo(200);
      assertThat(storedAuthorization(seq, 3))
          .startsWith(NodeSecrets.SEALED_PREFIX)
          .isNotEqualTo(sealed);
      JsonNode second =
          SequenceSupport.awaitRun(tenant.api(), fire(tenant, hook, "def").text("/runId"));
      assertThat(second.get("status").asString()).as(second.toString()).isEqualTo("completed");
      assertThat(elsewhere.received("/in")).singleElement();
      assertThat(elsewhere.received("/in").get(0).header("Authorization"))
          .isEqualTo("Bearer for-elsewhere");
      assertThat(origin.received("/in")).hasSize(1);
    }
  }

  @Test
  void aSecretGoesOnlyToAFixedOrigin() {
    var tenant = newTenant();
    String seq = SequenceSupport.automation(tenant.api(), "Secrets");
    String base = "/api/sequences/" + seq;
    for (String url :
        List.of(
            "https://{{trigger.host}}/in",
            "{{trigger.url}}",
            "https://api.example.com{{trigger.suffix}}/in")) {
      ApiResponse refused =
          tenant
              .api()
              .put(
                  base + "/canvas",
                  chain(
                      "in-" + UUID.randomUUID(),
                      node(
                          "call",
                          "http_request",
                          http("POST", url, "headers", Map.of("Authorization", BEARER)))));
      assertThat(refused.status()).as(url + " " + refused).isEqualTo(400);
      assertThat(fields(refused)).contains("nodes.call.data.config.url");
    }
    assertThat(currentVersion(tenant, seq)).isZero();
    ApiResponse templatedPath =
        tenant
            .api()
            .put(
                base + "/canvas",
                chain(
                    "in-" + UUID.randomUUID(),
                    node(
                        "call",
                        "http_request",
                        http(
                            "POST",
                            "https://api.example.com/{{trigger.path}}",
                            "headers",
                            Map.of("Authorization", BEARER)))));
    assertThat(templatedPath.status()).as(templatedPath.toString()).isEqualTo(200);
  }

  @Test
  void restoringAVersionKeepsThatVersionsOwnSecrets() throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer receiver = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      String seq = SequenceSupport.automation(tenant.api(), "Restore");
      String base = "/api/sequences/" + seq;
      assertThat(tenant.api().put(base + "/canvas", flow(hook, receiver.url("/in"))).status())
          .isEqualTo(200);
      String sealedV1 = storedAuthorization(seq, 1);
      assertThat(tenant.api().delete(base + "/nodes/call").status()).isEqualTo(200);

      // version 1 as GET shows it cannot be PUT back: the canvas holds no secrets of its node
      JsonNode v1 = tenant.api().get(base + "/versions/1").at("/canvas");
      ApiResponse putBack =
          tenant
              .api()
              .put(base + "/canvas", Map.of("nodes", v1.get("nodes"), "edges", v1.get("edges")));
      assertThat(putBack.status()).isEqualTo(400);
      assertThat(currentVersion(tenant, seq)).isEqualTo(2);

      assertThat(tenant.api().post(base + "/versions/9/restore", Map.of()).status()).isEqualTo(404);
      ApiResponse restored = tenant.api().post(base + "/versions/1/restore", Map.of());
      assertThat(restored.status()).as(restored.toString()).isEqualTo(200);
      assertThat(restored.at("/version").asInt()).isEqualTo(3);
      assertThat(restored.at("/node_count").asInt()).isEqualTo(2);
      assertThat(currentVersion(tenant, seq)).isEqualTo(3);
      assertThat(storedAuthorization(seq, 3)).isEqualTo(sealedV1);
      assertThat(
              tenant.api().get(base + "/canvas").at("/canvas/nodes/1/data/config/url").asString())
          .isEqualTo(receiver.url("/in"));

      assertThat(
              tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
          .isEqualTo(200);
      ApiResponse accepted = fire(tenant, hook, "abc");
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), accepted.text("/runId"));
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      LocalHttpServer.Received call = receiver.received("/in").get(0);
      assertThat(call.header("Authorization")).isEqualTo(BEARER);
      assertThat(call.header("X-Run-Token")).isEqualTo("t-abc");
    }
  }

  @Test
  void restoringIntoAnActiveFlowIsCheckedAsAnyChange() {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String seq =
        SequenceSupport.activeAutomation(
            tenant.api(),
            chain(
                hook,
                node(
                    "post", "chat_message", Map.of("channel", "#sales", "messageTemplate", "hi"))));
    String base = "/api/sequences/" + seq;
    assertThat(
            tenant
                .api()
                .put(
                    base + "/canvas",
                    chain(hook, node("call", "http_request", http("GET", "https://example.com"))))
                .status())
        .isEqualTo(200);
    var author = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);

    ApiResponse refused = author.post(base + "/versions/1/restore", Map.of());
    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.toString()).contains("integrations:write");
    assertThat(currentVersion(tenant, seq)).isEqualTo(2);
    assertThat(tenant.api().post(base + "/versions/1/restore", Map.of()).status()).isEqualTo(200);
    assertThat(currentVersion(tenant, seq)).isEqualTo(3);
  }

  /** Sealed with a key this service has never had (nor among its previous keys). */
  private static final SecretCipher FOREIGN =
      new SecretCipher(Base64.getEncoder().encodeToString(new byte[32]), "");

  /**
   * A saved (not yet read, so not cached) version 1 of the flow whose stored value at this path is
   * sealed with a foreign key, then activated.
   */
  private String activeWithForeignSeal(
      TenantClient tenant, String hook, String url, String path, String plain) {
    String seq = SequenceSupport.automation(tenant.api(), "Foreign");
    assertThat(tenant.api().put("/api/sequences/" + seq + "/canvas", flow(hook, url)).status())
        .isEqualTo(200);
    jdbc.sql(
            "update canvas_version set nodes = jsonb_set(nodes, ?::text[], to_jsonb(?::text))"
                + " where sequence_id = ?")
        .param(path)
        .param(FOREIGN.seal(tenant.id(), plain))
        .param(UUID.fromString(seq))
        .update();
    ApiResponse active = tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);
    return seq;
  }

  @Test
  void aTriggerWhoseSecretCannotBeUnsealedAnswersAProblemAndStartsNothing(CapturedOutput output)
      throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer receiver = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      String seq =
          activeWithForeignSeal(
              tenant, hook, receiver.url("/in"), "{0,data,config,secretToken}", TOKEN);

      ApiResponse refused = fire(tenant, hook, "abc");
      assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
      assertThat(refused.contentType()).startsWith("application/problem+json");
      assertThat(refused.text("/detail"))
          .contains("This automation's secret cannot be read")
          .contains("operator");
      assertThat(refused.toString()).doesNotContain(TOKEN);
      assertThat(
              jdbc.sql("select count(*) from automation_run where sequence_id = ?")
                  .param(UUID.fromString(seq))
                  .query(Integer.class)
                  .single())
          .isZero();
      assertThat(receiver.received()).isEmpty();
      assertThat(output.getOut() + output.getErr())
          .contains("The secretToken of trigger " + hook)
          .contains("cannot be unsealed")
          .doesNotContain(TOKEN);
    }
  }

  @Test
  void aHeaderThatCannotBeUnsealedFailsItsNodeAndSendsNothing() throws Exception {
    var tenant = newTenant();
    try (LocalHttpServer receiver = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      activeWithForeignSeal(
          tenant, hook, receiver.url("/in"), "{1,data,config,headers,Authorization}", BEARER);

      ApiResponse accepted = fire(tenant, hook, "abc");
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      ApiResponse read = tenant.api().get("/api/v1/automation-runs/" + accepted.text("/runId"));
      assertThat(read.status()).isEqualTo(200);
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), accepted.text("/runId"));
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
      JsonNode failed = run.at("/node_log/1");
      assertThat(failed.get("nodeId").asString()).isEqualTo("call");
      assertThat(failed.get("status").asString()).isEqualTo("failed");
      assertThat(failed.get("error").asString())
          .contains("the secret of header Authorization cannot be read")
          .contains("sealed with key " + FOREIGN.currentKeyId());
      assertThat(run.toString()).doesNotContain(BEARER);
      assertThat(receiver.received()).isEmpty();
    }
  }

  private String storedAuthorization(String seq, int version) {
    return jdbc.sql(
            """
            select n -> 'data' -> 'config' -> 'headers' ->> 'Authorization'
            from canvas_version, jsonb_array_elements(nodes) n
            where sequence_id = ? and version = ? and n ->> 'id' = 'call'
            """)
        .param(UUID.fromString(seq))
        .param(version)
        .query(String.class)
        .single();
  }
}
