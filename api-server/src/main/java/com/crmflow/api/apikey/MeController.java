package com.crmflow.api.apikey;

import com.crmflow.api.auth.AnyScope;
import com.crmflow.api.auth.Caller;
import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.embedded.EmbeddedInfrastructure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/me}: the calling key as the API sees it, with any scope. Clients (the console
 * among them) read what they may do from it instead of trying: {@code {tenant_id, api_key_id,
 * scopes, temporal_ui_url, temporal_namespace}}. temporal_ui_url is {@code crm.temporal.ui-url}, or
 * the embedded dev server's UI, or null.
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
  Map<String, Object> me(Caller caller) {
    String configuredUi = properties.temporal().uiUrl();
    Map<String, Object> me = new LinkedHashMap<>();
    me.put("tenant_id", caller.tenantId());
    me.put("api_key_id", caller.apiKeyId());
    me.put("scopes", new TreeSet<>(caller.scopes()));
    me.put(
        "temporal_ui_url",
        configuredUi != null && !configuredUi.isBlank()
            ? configuredUi
            : environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL));
    me.put("temporal_namespace", environment.getProperty("spring.temporal.namespace", "default"));
    return me;
  }
}
