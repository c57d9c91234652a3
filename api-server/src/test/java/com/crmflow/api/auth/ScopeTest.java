package com.crmflow.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.access.AnyScope;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * An endpoint answers 403 to a key that has every scope but its own, and serves its own, with keys
 * the service issues; every endpoint declares its scope. Each endpoint's own scope is checked in
 * its controller's slice test.
 */
class ScopeTest extends ApiTest {

  private static final String ANY_ID = "00000000-0000-0000-0000-000000000001";

  /**
   * A read and a write endpoint, with keys from the service's own key store; every endpoint's scope
   * is checked in its controller's slice test (inherited {@code endpointNeedsItsScope}).
   */
  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/contacts/" + ANY_ID, null, Scope.CONTACTS_READ),
        Arguments.of("POST", "/api/v1/sequences", "{}", Scope.SEQUENCES_WRITE));
  }

  @ParameterizedTest(name = "{0} {1} needs {3}")
  @MethodSource("endpoints")
  void endpointNeedsItsScope(String method, String path, String body, Scope scope) {
    var tenant = newTenant("contacts:read"); // any tenant; the keys below are what matters
    List<String> allButOne =
        Arrays.stream(Scope.values()).filter(s -> s != scope).map(Scope::value).toList();
    ApiClient lacking = keyFor(tenant.id(), allButOne, null);
    ApiClient holding = keyFor(tenant.id(), List.of(scope.value()), null);

    ApiResponse refused =
        lacking.send(method, path, body, body == null ? null : "application/json");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.text("/detail")).contains("'" + scope.value() + "'");

    ApiResponse allowed =
        holding.send(method, path, body, body == null ? null : "application/json");
    assertThat(allowed.status()).isNotIn(401, 403);
  }

  @Autowired
  @Qualifier("requestMappingHandlerMapping")
  RequestMappingHandlerMapping mappings;

  @Test
  void everyApiEndpointDeclaresItsScope() {
    var unguarded =
        mappings.getHandlerMethods().entrySet().stream()
            .filter(
                e ->
                    e.getKey().getPatternValues().stream()
                        .anyMatch(
                            p ->
                                p.startsWith("/api/") && !p.startsWith("/api/webhooks/automation")))
            .filter(e -> !e.getValue().hasMethodAnnotation(RequiresScope.class))
            .filter(e -> !e.getValue().hasMethodAnnotation(AnyScope.class))
            .map(e -> e.getKey().toString())
            .toList();
    assertThat(unguarded).isEmpty();
  }

  @Test
  void anyKeyReadsWhatItMayDo() {
    var tenant = newTenant("contacts:read", "sequences:write");
    ApiResponse me = tenant.api().get("/api/v1/me");
    assertThat(me.status()).isEqualTo(200);
    assertThat(me.text("/tenant_id")).isEqualTo(tenant.id().toString());
    assertThat(me.at("/scopes").valueStream().map(JsonNode::asString))
        .containsExactly("contacts:read", "sequences:write");
    assertThat(me.at("/temporal_ui_url").isNull()).as(me.toString()).isTrue();
    assertThat(me.text("/temporal_namespace")).isEqualTo("default");
    assertThat(anonymous().get("/api/v1/me").status()).isEqualTo(401);
  }

  /**
   * The Temporal UI shows every tenant's workflows with their payloads: its address goes only to a
   * key holding temporal_ui:read, which the operator keeps for their own keys ({@code *} holds it).
   */
  @Test
  void onlyAnOperatorsKeyIsToldWhereTheTemporalUiIs() {
    var tenant = newTenant("contacts:read");
    for (List<String> scopes :
        List.of(
            List.of("temporal_ui:read"),
            List.of("*"),
            List.of("contacts:read"),
            allScopesBut(Scope.TEMPORAL_UI_READ))) {
      ApiResponse me = keyFor(tenant.id(), scopes, null).get("/api/v1/me");
      assertThat(me.status()).as(me.toString()).isEqualTo(200);
      boolean operator = scopes.contains("*") || scopes.contains("temporal_ui:read");
      if (operator) {
        assertThat(me.text("/temporal_ui_url"))
            .as(scopes.toString())
            .startsWith("http://127.0.0.1:");
      } else {
        assertThat(me.at("/temporal_ui_url").isNull()).as(scopes.toString()).isTrue();
      }
    }
  }

  private static List<String> allScopesBut(Scope left) {
    return Arrays.stream(Scope.values()).filter(s -> s != left).map(Scope::value).toList();
  }

  @Test
  void wildcardKeyReachesEverything() {
    var tenant = newTenant("*");
    assertThat(tenant.api().get("/api/v1/custom-fields").status()).isEqualTo(200);
    assertThat(tenant.api().get("/api/v1/contacts/" + UUID.randomUUID()).status()).isEqualTo(404);
  }
}
