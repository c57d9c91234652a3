package com.crmflow.api.apikey;

import com.crmflow.api.auth.AnyScope;
import com.crmflow.api.auth.Caller;
import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.embedded.EmbeddedInfrastructure;
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
 * crm.temporal.ui-url}, or the embedded dev server's UI, or null; trace_ui_url is {@code
 * crm.tracing.ui-url} (a trace's address with {@code {trace_id}} in it), or null.
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
    String configuredUi = properties.temporal().uiUrl();
    return new Me(
        caller.tenantId(),
        caller.apiKeyId(),
        new TreeSet<>(caller.scopes()),
        configuredUi != null && !configuredUi.isBlank()
            ? configuredUi
            : environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL),
        environment.getProperty("spring.temporal.namespace", "default"),
        properties.tracing().uiUrl());
  }

  /** {@code {tenant_id, api_key_id, scopes, temporal_ui_url, temporal_namespace, trace_ui_url}}. */
  record Me(
      UUID tenantId,
      UUID apiKeyId,
      Set<String> scopes,
      String temporalUiUrl,
      String temporalNamespace,
      String traceUiUrl) {}
}
