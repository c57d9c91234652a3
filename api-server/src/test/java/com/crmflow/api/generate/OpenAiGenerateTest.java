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
  void theRepairRoundAnswersTheOneCallThatWasRead() {
    var tenant = newTenant();
    SERVER.queue(
        FakeModelServer.llamaCppToolCall(FLOW_WITHOUT_SUBJECT),
        FakeModelServer.openAiToolCall(GOOD_FLOW));
    String flow = SequenceSupport.automation(tenant.api(), "Generated");
    ApiResponse answer =
        tenant.api().post("/api/sequences/" + flow + "/generate", Map.of("prompt", PROMPT));
    assertThat(answer.header("X-Flow-Generator")).isEqualTo("llm");
    assertThat(SERVER.requests()).hasSize(2);
    JsonNode messages = JSON.readTree(SERVER.requests().get(1)).get("messages");
    // the draft goes back as the one call with its id, not as a second, id-less copy
    JsonNode calls = messages.get(2).get("tool_calls");
    assertThat(calls.size()).isEqualTo(1);
    assertThat(calls.get(0).get("id").asString()).isEqualTo("call__0_save_flow_cmpl-test");
    assertThat(messages.get(2).has("function_call")).isFalse();
    assertThat(messages.get(3).get("role").asString()).isEqualTo("tool");
    assertThat(messages.get(3).get("tool_call_id").asString())
        .isEqualTo("call__0_save_flow_cmpl-test");
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
