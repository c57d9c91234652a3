package com.crmflow.api.generate;

import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The LLM path against Anthropic's Messages API. */
class AnthropicGenerateTest extends LlmGenerateTest {

  private static final FakeModelServer SERVER = new FakeModelServer();

  @DynamicPropertySource
  static void llm(DynamicPropertyRegistry registry) {
    registry.add("crm.generate.llm.provider", () -> "anthropic");
    registry.add("crm.generate.llm.base-url", SERVER::baseUrl);
    registry.add("crm.generate.llm.model", () -> "claude-test");
    registry.add("crm.generate.llm.api-key", () -> "sk-ant-test");
    registry.add("crm.generate.llm.timeout", () -> TIMEOUT);
    registry.add("crm.generate.llm.off-for-tenants", KEPT_OFF::toString);
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
