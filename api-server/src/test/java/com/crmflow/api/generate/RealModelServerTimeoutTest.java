package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The real model server (see {@link LlamaServer}) with a timeout shorter than it takes to read the
 * canvas contract, let alone draft: the request thread waits no longer than the timeout, and the
 * answer is the offline parser's flow with {@code X-Flow-Generator: offline}. Tag {@code llm}.
 */
@Tag("llm")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class RealModelServerTimeoutTest extends ApiTest {

  static final long TIMEOUT_MILLIS = 1_000;

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    LlamaServer server = LlamaServer.shared();
    registry.add("crm.generate.llm.provider", () -> "openai");
    registry.add("crm.generate.llm.base-url", server::baseUrl);
    registry.add("crm.generate.llm.model", () -> LlamaServer.MODEL);
    registry.add("crm.generate.llm.timeout", () -> TIMEOUT_MILLIS + "ms");
    // the fewest: the server finishes the abandoned answer, and the test waits for it
    registry.add("crm.generate.llm.max-tokens", () -> "256");
    registry.add("crm.generate.llm.off-for-tenants", LlmGenerateTest.KEPT_OFF::toString);
  }

  private static final String PROMPT =
      "When a webhook arrives, wait 2 days, send an email with subject \"Welcome\"";

  /** How long a generation takes that never asks the model (a tenant kept off it). */
  private long offlineMillis() {
    jdbc.sql("insert into tenant (id, name) values (:id, 'kept off') on conflict do nothing")
        .param("id", LlmGenerateTest.KEPT_OFF)
        .update();
    String key = issueKey(LlmGenerateTest.KEPT_OFF, java.util.List.of("*"), null);
    var keptOff = withKey(key);
    long slowest = 0;
    // the first warms the request's path up; the slowest of the others is the measure
    for (int i = 0; i < 3; i++) {
      String flow = SequenceSupport.automation(keptOff, "Offline " + i);
      long start = System.nanoTime();
      ApiResponse answer =
          keptOff.post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(answer.header("X-Flow-Generator")).isEqualTo("offline");
      if (i > 0) {
        slowest = Math.max(slowest, millis);
      }
    }
    return slowest;
  }

  @Test
  void aModelSlowerThanTheTimeoutCostsTheTimeoutAndTheOfflineDraftAnswers() {
    LlamaServer server = LlamaServer.shared();
    long offline = offlineMillis();
    var tenant = newTenant();
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    server.clear();

    long start = System.nanoTime();
    ApiResponse answer =
        tenant.api().post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.printf(
        "[real-model] timeout %d ms: answered in %d ms (without the model: %d ms)%n",
        TIMEOUT_MILLIS, millis, offline);

    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(answer.at("/nodes").valueStream().map(n -> n.get("type").asString()).toList())
        .containsExactly("webhook_trigger", "delay", "email");
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas/nodes").size())
        .isEqualTo(3);
    // it waited for the model, for the timeout and no longer: the rest is what a generation
    // without the model takes (the offline parser and the save), with a second to spare
    assertThat(millis).isGreaterThanOrEqualTo(TIMEOUT_MILLIS);
    assertThat(millis).isLessThan(TIMEOUT_MILLIS + offline + 1_000);
    // the model was asked (and answered, to nobody, later: the server finishes what it started)
    await()
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(server.exchanges()).hasSize(1));
    assertThat(server.exchanges().get(0).status()).isEqualTo(200);
  }
}
