package com.crmflow.api.generate;

import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The LLM path against Anthropic's Messages API. */
class AnthropicGenerateTest extends LlmGenerateTest {

  private static final FakeModelServer SERVER = new FakeModelServer();

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    settings(registry, "anthropic", "claude-test", "sk-ant-test", SERVER);
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
    return FakeModelServer.anthropicToolUse(flow);
  }

  @Override
  FakeModelServer.Answer malformed() {
    // tool input is JSON inside the response, so a malformed answer is a body that is not JSON
    return new FakeModelServer.Answer(200, "{\"id\":\"msg_test\",\"content\":[{\"type\":", 0);
  }

  @Override
  boolean malformedIsRepaired() {
    return false;
  }

  @Override
  FakeModelServer.Answer rateLimited() {
    return FakeModelServer.anthropicRateLimited();
  }

  @Override
  String toolRequired() {
    return "\"tool_choice\":{\"type\":\"any\"}";
  }
}
