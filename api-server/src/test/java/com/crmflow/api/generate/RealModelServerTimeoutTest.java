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
    registry.add("crm.generate.llm.max-tokens", () -> "600");
  }

  @Test
  void aModelSlowerThanTheTimeoutCostsTheTimeoutAndTheOfflineDraftAnswers() {
    LlamaServer server = LlamaServer.shared();
    var tenant = newTenant();
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    server.clear();

    long start = System.nanoTime();
    ApiResponse answer =
        tenant
            .api()
            .post(
                "/api/sequences/" + flow + "/generate",
                Map.of(
                    "prompt",
                    "When a webhook arrives, wait 2 days, send an email with subject"
                        + " \"Welcome\""));
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.printf("[real-model] timeout %d ms: answered in %d ms%n", TIMEOUT_MILLIS, millis);

    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    assertThat(answer.header("X-Flow-Generator")).isEqualTo("offline");
    assertThat(answer.at("/nodes").valueStream().map(n -> n.get("type").asString()).toList())
        .containsExactly("webhook_trigger", "delay", "email");
    assertThat(tenant.api().get("/api/sequences/" + flow + "/canvas").at("/canvas/nodes").size())
        .isEqualTo(3);
    // the timeout, the offline parser and the save: well under a second more
    assertThat(millis).isLessThan(TIMEOUT_MILLIS + 1_500);
    // the model was asked (and answered, to nobody, later: the server finishes what it started)
    await()
        .atMost(Duration.ofMinutes(3))
        .untilAsserted(() -> assertThat(server.exchanges()).hasSize(1));
    assertThat(server.exchanges().get(0).status()).isEqualTo(200);
  }
}
