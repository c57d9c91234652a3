package com.crmflow.api.bootstrap;

import com.crmflow.api.access.Scope;
import com.crmflow.api.apikey.ApiKeyService;
import com.crmflow.api.embedded.EmbeddedInfrastructure;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.tenant.Tenant;
import com.crmflow.api.tenant.TenantRepository;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * First start: makes sure a new user can call the API at once.
 *
 * <ul>
 *   <li>{@code crm.bootstrap.api-key} set and unknown: tenant "default" (created once) gets that
 *       key with every scope.
 *   <li>Embedded defaults and no tenant at all: tenant "default" and one all-scope key, whose
 *       plaintext is printed to the console this once (never logged, never shown again).
 * </ul>
 *
 * Then prints where the service listens.
 */
@Component
class FirstRunBootstrap {

  private static final Logger log = LoggerFactory.getLogger(FirstRunBootstrap.class);

  private final CrmProperties properties;
  private final TenantRepository tenants;
  private final ApiKeyService apiKeys;
  private final TransactionTemplate transaction;
  private final Environment environment;

  FirstRunBootstrap(
      CrmProperties properties,
      TenantRepository tenants,
      ApiKeyService apiKeys,
      TransactionTemplate transaction,
      Environment environment) {
    this.properties = properties;
    this.tenants = tenants;
    this.apiKeys = apiKeys;
    this.transaction = transaction;
    this.environment = environment;
  }

  @EventListener(ApplicationReadyEvent.class)
  void onReady() {
    Optional<String> generatedKey = transaction.execute(status -> bootstrap());
    print(System.out, generatedKey == null ? Optional.empty() : generatedKey);
  }

  private Optional<String> bootstrap() {
    String configuredKey = properties.bootstrap().apiKey();
    if (configuredKey != null && !configuredKey.isBlank()) {
      if (!apiKeys.exists(configuredKey)) {
        Tenant tenant = tenants.findOrCreateDefault();
        apiKeys.importKey(tenant.id(), "bootstrap", configuredKey, List.of(Scope.ALL));
        log.info("Bootstrap API key stored in tenant {}", tenant.id());
      }
      return Optional.empty();
    }
    boolean embeddedDatabase =
        environment.getProperty(
            EmbeddedInfrastructure.EMBEDDED_POSTGRES_ACTIVE, Boolean.class, false);
    if (embeddedDatabase && !tenants.any()) {
      Tenant tenant = tenants.findOrCreateDefault();
      return Optional.of(
          apiKeys.issue(tenant.id(), "first-run", List.of(Scope.ALL), null).plaintext());
    }
    return Optional.empty();
  }

  private void print(PrintStream out, Optional<String> generatedKey) {
    String base = "http://localhost:" + environment.getProperty("local.server.port", "8080");
    out.println();
    out.println("CRM service listening on " + base);
    out.println("  API:      " + base + "/api/v1   (OpenAPI: " + base + "/swagger-ui.html)");
    out.println("  Console:  " + base + "/console   (sign in with an API key)");
    out.println("  Health:   " + base + "/actuator/health");
    String temporalUi = environment.getProperty(EmbeddedInfrastructure.TEMPORAL_UI_URL);
    if (temporalUi != null) {
      out.println(
          "  Temporal UI: "
              + temporalUi
              + "   (embedded dev server on "
              + environment.getProperty("spring.temporal.connection.target")
              + ")");
    } else {
      out.println(
          "  Temporal: " + environment.getProperty("spring.temporal.connection.target", "?"));
    }
    generatedKey.ifPresentOrElse(
        key -> {
          out.println("  API key (tenant \"default\", every scope), shown only this once:");
          out.println("    " + key);
          out.println(
              "  Try: curl -H 'Authorization: Bearer " + key + "' " + base + "/api/v1/contacts");
        },
        () ->
            out.println(
                "  API keys: use crm.bootstrap.api-key, the key printed on the first start, or"
                    + " the admin API (crm.admin-token): POST /admin/v1/tenants/{id}/api-keys"));
    out.println();
  }
}
