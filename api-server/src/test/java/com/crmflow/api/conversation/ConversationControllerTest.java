package com.crmflow.api.conversation;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The conversation endpoints' own decisions, in the slice of the web layer: the scope each needs
 * (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What they
 * store is the subject of the full-service tests ({@code ConversationApiTest} and others).
 */
class ConversationControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/conversations", null, Scope.CONVERSATIONS_READ),
        Arguments.of("GET", "/api/v1/conversations/" + ANY_ID, null, Scope.CONVERSATIONS_READ),
        Arguments.of(
            "GET", "/api/v1/conversations/" + ANY_ID + "/messages", null, Scope.CONVERSATIONS_READ),
        Arguments.of("POST", "/api/v1/conversations", "{}", Scope.CONVERSATIONS_WRITE),
        Arguments.of("PATCH", "/api/v1/conversations/" + ANY_ID, "{}", Scope.CONVERSATIONS_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.concat(
        largeListRefusals("/api/v1/conversations"),
        Stream.of(Arguments.of("GET", "/api/v1/conversations?limit=500", null, "limit", null)));
  }
}
