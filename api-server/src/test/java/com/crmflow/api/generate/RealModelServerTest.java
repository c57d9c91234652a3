package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.registration.NodeExecutors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * POST /generate against a real OpenAI-compatible model server (llama.cpp's, serving
 * SmolLM2-135M-Instruct: see {@link LlamaServer}). A model this small drafts poor flows, so the
 * repair round and the fallback to the offline parser run for real. For each prompt: the server
 * accepted every request (no 4xx, no 5xx), the answer is a flow that is saved and activates, {@code
 * X-Flow-Generator} names the generator that drafted it, a first draft with problems was followed
 * by the repair round (and the log says so), and nothing but the prompt, the canvas contract and
 * the tenant's custom field keys was sent. Tag {@code llm}: {@code ./mvnw verify -Pllm} (see the
 * README).
 */
@Tag("llm")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class RealModelServerTest extends ApiTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** What a request may hold at its top level: OpenAI's chat-completions fields, nothing else. */
  private static final Set<String> REQUEST_FIELDS =
      Set.of(
          "model",
          "messages",
          "tools",
          "tool_choice",
          "max_tokens",
          "max_completion_tokens",
          "stream",
          "parallel_tool_calls");

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    LlamaServer server = LlamaServer.shared();
    registry.add("crm.generate.llm.provider", () -> "openai");
    registry.add("crm.generate.llm.base-url", server::baseUrl);
    registry.add("crm.generate.llm.model", () -> LlamaServer.MODEL);
    // two drafts of a 135M model on two cores, each at most 600 tokens, fit in this
    registry.add("crm.generate.llm.timeout", () -> "150s");
    registry.add("crm.generate.llm.max-tokens", () -> "600");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "When a webhook arrives, wait 2 days, send an email with subject \"Welcome\"",
        "Every Monday at 9:00 Europe/Berlin call https://api.example.com/report and post the"
            + " result to #sales",
        "Wenn ein Kontakt erstellt wird, schicke eine E-Mail mit Betreff \"Hallo\"",
        "When a deal is created, if the deal amount is over 10000 notify #big-deals, otherwise"
            + " create a task to follow up"
      })
  void aRealModelServerAnswersEveryPromptWithASavedValidFlow(String prompt, CapturedOutput log) {
    LlamaServer server = LlamaServer.shared();
    var tenant = newTenant();
    String privateEmail = "private.person." + tenant.id() + "@example.com";
    assertThat(tenant.api().post("/api/v1/contacts", Map.of("email", privateEmail)).status())
        .isEqualTo(201);
    assertThat(
            tenant
                .api()
                .post(
                    "/api/v1/custom-fields",
                    Map.of(
                        "object_type",
                        "contact",
                        "field_label",
                        "Favourite colour",
                        "field_type",
                        "text"))
                .status())
        .isEqualTo(201);
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    server.clear();
    int logged = log.getAll().length();

    long start = System.nanoTime();
    ApiResponse answer =
        tenant
            .api()
            .withTimeout(Duration.ofMinutes(4))
            .post("/api/sequences/" + flow + "/generate", Map.of("prompt", prompt));
    long millis = (System.nanoTime() - start) / 1_000_000;
    List<LlamaServer.Exchange> exchanges = server.exchanges();
    String generator = answer.header("X-Flow-Generator");
    System.out.printf(
        "[real-model] %s: %s in %d ms, %d call(s), statuses %s%n",
        prompt,
        generator,
        millis,
        exchanges.size(),
        exchanges.stream().map(LlamaServer.Exchange::status).toList());

    // the server accepted what the service sent, every time
    assertThat(exchanges).isNotEmpty().hasSizeLessThanOrEqualTo(2);
    for (LlamaServer.Exchange exchange : exchanges) {
      assertThat(exchange.path()).isEqualTo("/v1/chat/completions");
      assertThat(exchange.status()).as(exchange.response()).isEqualTo(200);
    }

    // a saved flow, valid enough to activate, drafted by the generator the header names
    assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    assertThat(generator).isIn("llm", "offline");
    ApiResponse stored = tenant.api().get("/api/sequences/" + flow + "/canvas");
    assertThat(ids(stored.at("/canvas/nodes"))).isEqualTo(ids(answer.at("/nodes")));
    assertThat(stored.at("/canvas/version").asInt()).isEqualTo(1);
    ApiResponse active =
        tenant.api().patch("/api/v1/sequences/" + flow, Map.of("status", "active"));
    assertThat(active.status()).as(active.toString()).isEqualTo(200);

    // each draft read as the service reads it: the header follows from them, and a first draft
    // with problems is followed by the repair round, which the log records
    List<String> first = draftProblems(exchanges.get(0));
    String since = log.getAll().substring(logged);
    if (first == null) {
      assertThat(since).contains("answered without calling save_flow");
      assertThat(exchanges).hasSize(1);
      assertThat(generator).isEqualTo("offline");
    } else if (first.isEmpty()) {
      assertThat(exchanges).hasSize(1);
      assertThat(generator).isEqualTo("llm");
    } else {
      assertThat(since).contains("Draft 1 of the language model has problems");
      assertThat(exchanges).hasSize(2);
      assertThat(exchanges.get(1).request()).contains("The flow was not saved");
      List<String> second = draftProblems(exchanges.get(1));
      assertThat(generator).isEqualTo(second != null && second.isEmpty() ? "llm" : "offline");
    }

    // nothing but the prompt, the contract and the custom field keys left the service
    for (LlamaServer.Exchange exchange : exchanges) {
      JsonNode request = JSON.readTree(exchange.request());
      assertThat(Set.copyOf(request.propertyNames())).isSubsetOf(REQUEST_FIELDS);
      JsonNode messages = request.get("messages");
      assertThat(messages.get(0).get("role").asString()).isEqualTo("system");
      assertThat(messages.get(0).get("content").asString())
          .isEqualTo(
              new CanvasContract(NodeExecutors.catalog())
                  .systemPrompt(true, List.of("favourite_colour")));
      assertThat(messages.get(1).get("role").asString()).isEqualTo("user");
      assertThat(messages.get(1).get("content").asString()).isEqualTo(prompt);
      // the repair round: the model's own draft, and the problems found in it
      assertThat(messages.size()).isLessThanOrEqualTo(3);
      if (messages.size() == 3) {
        assertThat(messages.get(2).get("role").asString()).isEqualTo("user");
        assertThat(messages.get(2).get("content").asString())
            .startsWith("Your draft called save_flow with:")
            .contains("The flow was not saved.");
      }
      assertThat(exchange.request())
          .doesNotContain(privateEmail, tenant.id().toString(), tenant.key(), flow);
    }
  }

  /**
   * What the service finds wrong with a draft: empty for a valid flow, null for an answer without
   * the tool call.
   */
  private static List<String> draftProblems(LlamaServer.Exchange exchange) {
    JsonNode calls = JSON.readTree(exchange.response()).at("/choices/0/message/tool_calls");
    if (!calls.isArray() || calls.isEmpty()) {
      return null;
    }
    String arguments = calls.get(0).at("/function/arguments").asString();
    List<String> problems = new ArrayList<>();
    Canvas draft =
        LlmFlowGenerator.read(
            arguments, NodeExecutors.catalog().names(), problems, new ArrayList<>());
    if (draft != null) {
      FlowGeneration.problems(draft, true, NodeExecutors.catalog())
          .forEach(p -> problems.add(p.message()));
    }
    return problems;
  }

  private static List<String> ids(JsonNode nodes) {
    return nodes.valueStream().map(n -> n.get("id").asString()).sorted().toList();
  }
}
