package com.crmflow.api.chat;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.PendingActivities;
import com.crmflow.api.support.RefusedPort;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.action.ChatActivities;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.failure.ApplicationFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** The chat integration endpoint and chat_message nodes, against a local stand-in for Slack. */
class ChatMessageNodeTest extends ApiTest {

  private static final String TOKEN = "xoxb-test-1234-secretvalue";

  @Autowired private ChatActivities chat;
  @Autowired private WorkflowClient temporal;

  private LocalHttpServer slack;
  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    slack = new LocalHttpServer();
    tenant = newTenant();
  }

  @AfterEach
  void tearDown() {
    slack.close();
  }

  private ApiResponse connect() {
    return tenant
        .api()
        .put(
            "/api/v1/integrations/chat",
            Map.of("provider", "slack", "bot_token", TOKEN, "base_url", slack.url("/api")));
  }

  private JsonNode runChat(Object payload) {
    return awaitRun(tenant.api(), startChat(payload));
  }

  /** Fires a webhook_trigger → chat_message flow and returns the run id. */
  private String startChat(Object payload) {
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            hook,
            node(
                "say",
                "chat_message",
                Map.of(
                    "channel",
                    "#sales",
                    "messageTemplate",
                    "New lead {{trigger.name}} ({{trigger.plan}})"))));
    return fire(anonymous(), tenant.id(), hook, payload);
  }

  @Test
  void theTokenIsStoredEncryptedAndNeverReturned() {
    ApiResponse connected = connect();
    assertThat(connected.status()).as(connected.toString()).isEqualTo(200);
    assertThat(connected.text("/integration/provider")).isEqualTo("slack");
    assertThat(connected.text("/integration/token_hint")).isEqualTo("…alue");
    assertThat(connected.rawBody()).doesNotContain(TOKEN);
    ApiResponse read = tenant.api().get("/api/v1/integrations/chat");
    assertThat(read.text("/integration/base_url")).isEqualTo(slack.url("/api"));
    assertThat(read.rawBody()).doesNotContain(TOKEN);

    byte[] stored =
        jdbc.sql("select token_ciphertext from chat_integration where tenant_id = :t")
            .param("t", tenant.id())
            .query(byte[].class)
            .single();
    assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("secretvalue");
    assertThat(newTenant().api().get("/api/v1/integrations/chat").status()).isEqualTo(404);
  }

  @Test
  void connectRefusesBadInputAndStoresNothing() {
    ApiResponse noToken =
        tenant.api().put("/api/v1/integrations/chat", Map.of("provider", "teams"));
    assertThat(noToken.status()).isEqualTo(400);
    assertThat(noToken.at("/errors").toString()).contains("provider", "bot_token");
    assertThat(tenant.api().get("/api/v1/integrations/chat").status()).isEqualTo(404);
  }

  /**
   * The API's method is appended to the base url's path: a base url with user info, a query, a
   * fragment or a dot segment would take it elsewhere, and is refused when connected and when used.
   */
  @Test
  void aBaseUrlThatWouldNotTakeTheMethodIntoItsPathIsRefused() {
    for (String base :
        List.of(
            slack.url("/api?x="),
            slack.url("/api#"),
            slack.url("/api/../admin"),
            slack.url("/api/%2e%2e/admin"),
            slack.url("/api").replace("://", "://user@"))) {
      ApiResponse refused =
          tenant
              .api()
              .put(
                  "/api/v1/integrations/chat",
                  Map.of("provider", "slack", "bot_token", TOKEN, "base_url", base));
      assertThat(refused.status()).as(base + ": " + refused).isEqualTo(400);
      assertThat(refused.at("/errors/0/field").asString()).isEqualTo("base_url");
    }
    assertThat(tenant.api().get("/api/v1/integrations/chat").status()).isEqualTo(404);

    connect();
    jdbc.sql("update chat_integration set base_url = ? where tenant_id = ?")
        .param(slack.url("/api?x="))
        .param(tenant.id())
        .update();
    JsonNode run = runChat(Map.of("name", "Ada"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("base_url is not a plain http(s) URL");
    assertThat(slack.received()).isEmpty();
  }

  @Test
  void chatMessagePostsTheRenderedTextWithTheBotToken() {
    connect();
    slack.answer(
        "/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C123\", \"ts\": \"1.5\"}");

    JsonNode run = runChat(Map.of("name", "Ada", "plan", "pro"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    LocalHttpServer.Received call = slack.received("/api/chat.postMessage").get(0);
    assertThat(call.method()).isEqualTo("POST");
    assertThat(call.header("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(call.header("Content-Type")).startsWith("application/json");
    assertThat(call.body()).isEqualTo("{\"channel\":\"#sales\",\"text\":\"New lead Ada (pro)\"}");
    assertThat(run.at("/node_log/1/output/ts").asString()).isEqualTo("1.5");
    assertThat(run.at("/node_log/1/output/channel").asString()).isEqualTo("C123");
  }

  @Test
  void aChatMessageNodeRunAgainAnswersWithTheFirstPostInsteadOfPostingTwice() {
    connect();
    slack.answer(
        "/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C123\", \"ts\": \"1.5\"}");
    JsonNode run = runChat(Map.of("name", "Ada", "plan", "pro"));
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    slack.answer(
        "/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C123\", \"ts\": \"2.5\"}");

    // the node run again: its activity retried after a post whose answer was lost, or its run
    // resumed after a restart before the node's log entry was written
    Map<String, Object> again =
        chat.post(
            tenant.id().toString(),
            "#sales",
            "New lead Ada (pro)",
            run.get("id").asString(),
            "say");

    assertThat(again).containsEntry("ts", "1.5").containsEntry("channel", "C123");
    assertThat(slack.received("/api/chat.postMessage")).hasSize(1);
  }

  @Test
  void aSlackErrorFailsTheNodeWithTheErrorCode() {
    connect();
    slack.answer("/api/chat.postMessage", 200, "{\"ok\": false, \"error\": \"channel_not_found\"}");

    JsonNode run = runChat(Map.of("name", "Ada"));

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("channel_not_found");
    assertThat(slack.received("/api/chat.postMessage")).hasSize(1); // not retried
  }

  @Test
  void aTokenThatCannotBeUnsealedFailsTheNodeAndPostsNothing() {
    connect();
    // stored sealed under a key this service does not hold
    jdbc.sql("update chat_integration set token_ciphertext = ? where tenant_id = ?")
        .param(
            new SecretCipher(Base64.getEncoder().encodeToString(new byte[32]), "").encrypt(TOKEN))
        .param(tenant.id())
        .update();

    JsonNode run = runChat(Map.of("name", "Ada"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
    assertThat(run.at("/node_log/1/status").asString()).isEqualTo("failed");
    assertThat(run.at("/node_log/1/error").asString())
        .contains("the chat integration's token cannot be read")
        .contains("connect the integration again");
    assertThat(run.toString()).doesNotContain(TOKEN);
    assertThat(slack.received()).isEmpty();
  }

  @Test
  void rateLimitsAreRetriedAfterTheirRetryAfter() {
    connect();
    slack.answerOnce("/api/chat.postMessage", 429, "", Map.of("Retry-After", "2"));
    slack.answerOnce(
        "/api/chat.postMessage",
        200,
        "{\"ok\": false, \"error\": \"ratelimited\"}",
        Map.of("Retry-After", "1"));
    slack.answer(
        "/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C9\", \"ts\": \"7.1\"}");

    JsonNode run = runChat(Map.of("name", "Ada"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    List<LocalHttpServer.Received> calls = slack.received("/api/chat.postMessage");
    assertThat(calls).hasSize(3);
    assertThat(Duration.between(calls.get(0).at(), calls.get(1).at()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(1900));
    assertThat(Duration.between(calls.get(1).at(), calls.get(2).at()))
        .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    assertThat(run.at("/node_log/1/output/ts").asString()).isEqualTo("7.1");
    assertThat(run.at("/node_log").size()).isEqualTo(2); // one entry for the node, not one a try
  }

  @Test
  void aPostWhoseAnswerNeverCameIsNotMadeAgainUntilTheRunIsRetried() {
    connect();
    slack.hangUp("/api/chat.postMessage");

    JsonNode run = runChat(Map.of("name", "Ada", "plan", "pro"));

    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("failed");
    assertThat(run.get("error").asString())
        .contains("the chat message may have been delivered")
        .contains("it is not sent again");
    assertThat(slack.received("/api/chat.postMessage")).hasSize(1);

    slack.answer(
        "/api/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C1\", \"ts\": \"3.5\"}");
    slack.stopHangingUp("/api/chat.postMessage");
    String retryId =
        tenant
            .api()
            .post("/api/v1/automation-runs/" + run.get("id").asString() + "/retry", Map.of())
            .text("/run/id");
    JsonNode retried = awaitRun(tenant.api(), retryId);

    assertThat(retried.get("status").asString()).as(retried.toString()).isEqualTo("completed");
    // a retry logs the nodes it ran: from the failed one on
    assertThat(retried.at("/node_log/0/output/ts").asString()).isEqualTo("3.5");
    assertThat(slack.received("/api/chat.postMessage")).hasSize(2);
  }

  @Test
  void aPostCutShortIsNotMadeAgainByAnAttemptWithoutItsPredecessorsHeartbeat() {
    connect();
    slack.hangUp("/api/chat.postMessage");
    JsonNode run = runChat(Map.of("name", "Ada", "plan", "pro"));
    assertThat(run.get("status").asString()).isEqualTo("failed");
    slack.stopHangingUp("/api/chat.postMessage");

    // an attempt that knows nothing of the one before it (no heartbeat) finds the mark in the
    // database
    TestActivityEnvironment activities = TestActivityEnvironment.newInstance();
    Throwable again;
    try {
      activities.registerActivitiesImplementations(chat);
      ChatActivities resumed =
          activities.newActivityStub(
              ChatActivities.class,
              ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(10)).build());
      again =
          catchThrowable(
              () ->
                  resumed.post(
                      tenant.id().toString(),
                      "#sales",
                      "New lead Ada (pro)",
                      run.get("id").asString(),
                      "say"));
    } finally {
      activities.close();
    }

    assertThat(((ApplicationFailure) again.getCause()).getType())
        .isEqualTo(ChatActivities.OUTCOME_UNKNOWN);
    assertThat(slack.received("/api/chat.postMessage")).hasSize(1);
  }

  @Test
  void anUnreachableChatApiIsRetriedAndPostsOnce() throws Exception {
    RefusedPort outage = new RefusedPort();
    int port = outage.port();
    tenant
        .api()
        .put(
            "/api/v1/integrations/chat",
            Map.of(
                "provider", "slack", "bot_token", TOKEN, "base_url", "http://127.0.0.1:" + port));
    String runId = startChat(Map.of("name", "Ada"));
    String workflowId =
        tenant.api().get("/api/v1/automation-runs/" + runId).text("/run/workflow_id");
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> PendingActivities.failedAttempts(temporal, workflowId, "chat_message") >= 1);

    outage.close();
    try (LocalHttpServer late = new LocalHttpServer(port)) {
      late.answer("/chat.postMessage", 200, "{\"ok\": true, \"channel\": \"C2\", \"ts\": \"4.5\"}");
      JsonNode run = awaitRun(tenant.api(), runId);

      // the failed attempt said nothing was delivered, so the next one posted
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      assertThat(late.received("/chat.postMessage")).hasSize(1);
    }
  }

  @Test
  void withoutAConnectedIntegrationTheNodeFailsClearly() {
    JsonNode run = runChat(Map.of("name", "Ada"));

    assertThat(run.get("status").asString()).isEqualTo("failed");
    assertThat(run.get("error").asString()).contains("no chat integration is connected");
  }
}
