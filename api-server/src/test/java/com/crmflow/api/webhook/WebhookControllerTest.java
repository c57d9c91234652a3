package com.crmflow.api.webhook;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The webhook subscription endpoints' own decisions, in the slice of the web layer: the scope each
 * needs (the inherited {@code endpointNeedsItsScope}), and a refused request reaches no store. What
 * they store is the subject of the full-service tests ({@code WebhookDeliveryTest} and others).
 */
class WebhookControllerTest extends ControllerSliceTest {

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("POST", "/api/v1/webhooks/subscribe", "{}", Scope.WEBHOOKS_WRITE),
        Arguments.of("GET", "/api/v1/webhooks/subscribe", null, Scope.WEBHOOKS_WRITE),
        Arguments.of(
            "PATCH", "/api/v1/webhooks/subscriptions/" + ANY_ID, "{}", Scope.WEBHOOKS_WRITE),
        Arguments.of(
            "DELETE", "/api/v1/webhooks/subscriptions/" + ANY_ID, null, Scope.WEBHOOKS_WRITE),
        Arguments.of(
            "GET",
            "/api/v1/webhooks/subscriptions/" + ANY_ID + "/deliveries",
            null,
            Scope.WEBHOOKS_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return Stream.of(
        Arguments.of("POST", "/api/v1/webhooks/subscribe", "\"https://x.example\"", "body", null),
        Arguments.of("PATCH", "/api/v1/webhooks/subscriptions/nope", "{}", "id", null),
        Arguments.of("DELETE", "/api/v1/webhooks/subscriptions/nope", null, "id", null),
        Arguments.of(
            "GET",
            "/api/v1/webhooks/subscriptions/" + ANY_ID + "/deliveries?limit=500",
            null,
            "limit",
            null));
  }
}
