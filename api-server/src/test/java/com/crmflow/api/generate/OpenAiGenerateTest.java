package com.crmflow.api.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.SequenceSupport;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The LLM path against an OpenAI-compatible chat-completions endpoint. */
class OpenAiGenerateTest extends LlmGenerateTest {

  private static final FakeModelServer SERVER = new FakeModelServer();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    settings(registry, "openai", "gpt-test", "sk-test", SERVER);
  }

  @AfterAll
  static void stop() {
    SERVER.close();
  }

  @Test
  void theRepairRoundQuotesTheDraftInAUserMessage() {
    var tenant = newTenant();
    // answered as llama-cpp-python's server answers: the call twice, once without an id
    SERVER.queue(
        FakeModelServer.llamaCppToolCall(FLOW_WITHOUT_SUBJECT),
        FakeModelServer.openAiToolCall(GOOD_FLOW));
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    ApiResponse answer =
        tenant.api().post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
    assertThat(answer.header("X-Flow-Generator")).isEqualTo("llm");
    assertThat(SERVER.requests()).hasSize(2);
    JsonNode messages = JSON.readTree(SERVER.requests().get(1)).get("messages");
    // system, the prompt, and the draft with its problems: no assistant tool call to send back
    assertThat(messages.valueStream().map(m -> m.get("role").asString()).toList())
        .containsExactly("system", "user", "user");
    assertThat(messages.get(2).get("content").asString())
        .startsWith("Your draft called save_flow with:\n{\"nodes\"")
        .contains("The flow was not saved", "subject");
    assertThat(SERVER.requests().get(1)).doesNotContain("tool_call_id", "function_call");
  }

  @Override
  FakeModelServer server() {
    return SERVER;
  }

  @Override
  FakeModelServer.Answer toolCall(String flow) {
    return FakeModelServer.openAiToolCall(flow);
  }

  @Override
  FakeModelServer.Answer malformed() {
    // the arguments are text the model writes: here cut off mid-way
    return FakeModelServer.openAiToolCall("{\"nodes\": [{\"id\": \"trigger\", \"type\": ");
  }

  @Override
  boolean malformedIsRepaired() {
    return true;
  }

  @Override
  FakeModelServer.Answer rateLimited() {
    return FakeModelServer.openAiRateLimited();
  }

  @Override
  String toolRequired() {
    // the tool named: "required" is refused by llama-cpp-python's server (RealModelServerTest)
    return "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"save_flow\"}}";
  }
}
