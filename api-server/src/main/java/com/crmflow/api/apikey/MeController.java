package com.crmflow.api.apikey;

import com.crmflow.api.access.AnyScope;
import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.embedded.EmbeddedInfrastructure;
import com.crmflow.api.settings.CrmProperties;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/me}: the calling key as the API sees it, with any scope. Clients (the console
 * among them) read what they may do from it instead of trying: {@code {tenant_id, api_key_id,
 * scopes, temporal_ui_url, temporal_namespace, trace_ui_url}}. temporal_ui_url is {@code
 * crm.temporal.ui-url}, or the embedded dev server's UI, or null, and only for a key holding {@code
 * temporal_ui:read}: the Temporal UI shows every tenant's workflows and their payloads, an
 * operator's tool a tenant's key is not pointed to; trace_ui_url is {@code crm.tracing.ui-url} (a
 * trace's address with {@code {trace_id}} in it), or null.
 */
@RestController
class MeController {

  private final CrmProperties properties;
  private final Environment environment;

  MeController(CrmProperties properties, Environment environment) {
    this.properties = properties;
    this.environment = environment;
  }

  @GetMapping("/api/v1/me")
  @AnyScope
  Me me(Caller caller) {
    return new Me(
        caller.tenantId(),
        caller.apiKeyId(),
        new TreeSet<>(caller.scopes()),
        caller.has(Scope.TEMPORAL_UI_READ) ? temporalUiUrl() : null,
        environment.getProperty("spring.temporal.namespace", "default"),
        properties.tracing().uiUrl());
  }

  private String temporalUiUrl() {
    String configured = properties.temporal().uiUrl();
    return configured != null && !configured.isBlank()
        ? configured
        : environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL);
  }

  /** {@code {tenant_id, api_key_id, scopes, temporal_ui_url, temporal_namespace, trace_ui_url}}. */
  record Me(
      UUID tenantId,
      UUID apiKeyId,
      Set<String> scopes,
      @Schema(
              description =
                  "The Temporal UI's address, for a key holding temporal_ui:read (the operator's):"
                      + " the UI shows every tenant's workflows and payloads; null otherwise")
          String temporalUiUrl,
      String temporalNamespace,
      String traceUiUrl) {}
}
