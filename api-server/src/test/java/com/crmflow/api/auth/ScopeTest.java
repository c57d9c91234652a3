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

/** Each endpoint answers 403 to a key that has every scope but its own, and serves its own. */
class ScopeTest extends ApiTest {

  private static final String ANY_ID = "00000000-0000-0000-0000-000000000001";

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/contacts", null, Scope.CONTACTS_READ),
        Arguments.of("GET", "/api/v1/contacts/" + ANY_ID, null, Scope.CONTACTS_READ),
        Arguments.of("POST", "/api/v1/contacts", "{}", Scope.CONTACTS_WRITE),
        Arguments.of("PATCH", "/api/v1/contacts/" + ANY_ID, "{}", Scope.CONTACTS_WRITE),
        Arguments.of("GET", "/api/v1/custom-fields", null, Scope.CUSTOM_FIELDS_READ),
        Arguments.of("POST", "/api/v1/custom-fields", "{}", Scope.CUSTOM_FIELDS_WRITE),
        Arguments.of("GET", "/api/v1/accounts", null, Scope.ACCOUNTS_READ),
        Arguments.of("GET", "/api/v1/accounts/" + ANY_ID, null, Scope.ACCOUNTS_READ),
        Arguments.of("POST", "/api/v1/accounts", "{}", Scope.ACCOUNTS_WRITE),
        Arguments.of("PATCH", "/api/v1/accounts/" + ANY_ID, "{}", Scope.ACCOUNTS_WRITE),
        Arguments.of("GET", "/api/v1/opportunities", null, Scope.OPPORTUNITIES_READ),
        Arguments.of("GET", "/api/v1/opportunities/" + ANY_ID, null, Scope.OPPORTUNITIES_READ),
        Arguments.of("POST", "/api/v1/opportunities", "{}", Scope.OPPORTUNITIES_WRITE),
        Arguments.of("PATCH", "/api/v1/opportunities/" + ANY_ID, "{}", Scope.OPPORTUNITIES_WRITE),
        Arguments.of("GET", "/api/v1/conversations", null, Scope.CONVERSATIONS_READ),
        Arguments.of("GET", "/api/v1/conversations/" + ANY_ID, null, Scope.CONVERSATIONS_READ),
        Arguments.of(
            "GET", "/api/v1/conversations/" + ANY_ID + "/messages", null, Scope.CONVERSATIONS_READ),
        Arguments.of("POST", "/api/v1/conversations", "{}", Scope.CONVERSATIONS_WRITE),
        Arguments.of("PATCH", "/api/v1/conversations/" + ANY_ID, "{}", Scope.CONVERSATIONS_WRITE),
        Arguments.of("GET", "/api/v1/notes", null, Scope.NOTES_READ),
        Arguments.of("POST", "/api/v1/notes", "{}", Scope.NOTES_WRITE),
        Arguments.of("GET", "/api/v1/tasks", null, Scope.TASKS_READ),
        Arguments.of("POST", "/api/v1/tasks", "{}", Scope.TASKS_WRITE),
        Arguments.of("PATCH", "/api/v1/tasks/" + ANY_ID, "{}", Scope.TASKS_WRITE),
        Arguments.of("GET", "/api/v1/sequences", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/sequences/" + ANY_ID, null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/v1/sequences", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/v1/sequences/" + ANY_ID, "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("DELETE", "/api/v1/sequences/" + ANY_ID, null, Scope.SEQUENCES_WRITE),
        Arguments.of(
            "POST", "/api/v1/sequences/" + ANY_ID + "/duplicate", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/v1/sequences/enroll", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/v1/sequences/unenroll", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "GET", "/api/v1/sequences/" + ANY_ID + "/enrollments", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/sequences/" + ANY_ID + "/steps", null, Scope.SEQUENCES_READ),
        Arguments.of("PUT", "/api/v1/sequences/" + ANY_ID + "/steps", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/v1/node-types", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/email-templates", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/v1/email-templates/" + ANY_ID, null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/v1/email-templates", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/v1/email-templates/" + ANY_ID, "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("DELETE", "/api/v1/email-templates/" + ANY_ID, null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/canvas", null, Scope.SEQUENCES_READ),
        Arguments.of("PUT", "/api/sequences/" + ANY_ID + "/canvas", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/nodes", null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/nodes", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of("PATCH", "/api/sequences/" + ANY_ID + "/nodes/n", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "DELETE", "/api/sequences/" + ANY_ID + "/nodes/n", null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/edges", null, Scope.SEQUENCES_READ),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/edges", "{}", Scope.SEQUENCES_WRITE),
        Arguments.of(
            "DELETE", "/api/sequences/" + ANY_ID + "/edges/e", null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/versions", null, Scope.SEQUENCES_READ),
        Arguments.of("GET", "/api/sequences/" + ANY_ID + "/versions/1", null, Scope.SEQUENCES_READ),
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/versions/1/restore",
            null,
            Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/validate", null, Scope.SEQUENCES_READ),
        Arguments.of(
            "POST",
            "/api/sequences/" + ANY_ID + "/generate",
            "{\"prompt\":\"x\"}",
            Scope.SEQUENCES_WRITE),
        Arguments.of("POST", "/api/sequences/" + ANY_ID + "/optimize", null, Scope.SEQUENCES_WRITE),
        Arguments.of("GET", "/api/v1/automation-runs", null, Scope.AUTOMATION_RUNS_READ),
        Arguments.of("GET", "/api/v1/automation-runs/" + ANY_ID, null, Scope.AUTOMATION_RUNS_READ),
        Arguments.of(
            "POST",
            "/api/v1/automation-runs/" + ANY_ID + "/cancel",
            null,
            Scope.AUTOMATION_RUNS_WRITE),
        Arguments.of(
            "POST",
            "/api/v1/automation-runs/" + ANY_ID + "/retry",
            null,
            Scope.AUTOMATION_RUNS_WRITE),
        Arguments.of("GET", "/api/v1/outbound-emails", null, Scope.AUTOMATION_RUNS_READ),
        Arguments.of("GET", "/api/v1/integrations/chat", null, Scope.INTEGRATIONS_READ),
        Arguments.of("PUT", "/api/v1/integrations/chat", "{}", Scope.INTEGRATIONS_WRITE),
        Arguments.of("DELETE", "/api/v1/integrations/chat", null, Scope.INTEGRATIONS_WRITE),
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
