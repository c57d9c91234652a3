package com.crmflow.api.generate;

import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The LLM path against an OpenAI-compatible chat-completions endpoint. */
class OpenAiGenerateTest extends LlmGenerateTest {

  private static final FakeModelServer SERVER = new FakeModelServer();

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    settings(registry, "openai", "gpt-test", "sk-test", SERVER);
  }

  @AfterAll
  static void stop() {
    SERVER.close();
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
