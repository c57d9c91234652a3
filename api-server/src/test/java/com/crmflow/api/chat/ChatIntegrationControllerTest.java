package com.crmflow.api.chat;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The chat integration endpoints' own decisions, in the slice of the web layer: the scope each
 * needs (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What
 * they store is the subject of the full-service tests ({@code ChatMessageNodeTest} and others).
 */
class ChatIntegrationControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/integrations/chat", null, Scope.INTEGRATIONS_READ),
        Arguments.of("PUT", "/api/v1/integrations/chat", "{}", Scope.INTEGRATIONS_WRITE),
        Arguments.of("DELETE", "/api/v1/integrations/chat", null, Scope.INTEGRATIONS_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of(
            "PUT",
            "/api/v1/integrations/chat",
            "{\"provider\": \"slack\", \"bot_token\": 7}",
            "bot_token",
            "must be a string"));
  }
}
