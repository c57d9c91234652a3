package com.crmflow.api.support;

import com.crmflow.api.CrmApiApplication;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole service started in the test JVM on a data directory of its own, as a user runs it, so a
 * test can stop it and start it again on the same data.
 */
public final class WholeService {

  public static final String ADMIN_TOKEN = "whole-service-admin-token";

  private WholeService() {}

  /** Starts the service (random ports, the tests' loopback peers allowed) with these extras. */
  public static ConfigurableApplicationContext start(
      Path dataDir, String[] profiles, String... extraArgs) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--server.port=0",
                "--crm.data-dir=" + dataDir,
                "--crm.embedded.temporal-port=0",
                "--crm.embedded.temporal-ui-port=0",
                "--crm.admin-token=" + ADMIN_TOKEN,
                "--crm.http.allow-private-addresses=true"));
    args.addAll(List.of(extraArgs));
    return new SpringApplicationBuilder(CrmApiApplication.class)
        .profiles(profiles)
        .run(args.toArray(String[]::new));
  }

  public static String baseUrl(ConfigurableApplicationContext service) {
    return "http://127.0.0.1:" + service.getEnvironment().getProperty("local.server.port");
  }

  /** A new tenant with a key of every scope, made through the admin API. */
  public static ApiTest.TenantClient newTenant(ConfigurableApplicationContext service) {
    return newTenant(baseUrl(service), ADMIN_TOKEN);
  }

  /** A new tenant with a key of every scope, made through the admin API of the service there. */
  public static ApiTest.TenantClient newTenant(String baseUrl, String adminToken) {
    ApiClient admin = new ApiClient(baseUrl, adminToken);
    UUID tenantId =
        UUID.fromString(
            admin
                .post("/admin/v1/tenants", Map.of("name", "t-" + UUID.randomUUID()))
                .text("/tenant/id"));
    String key =
        admin
            .post(
                "/admin/v1/tenants/" + tenantId + "/api-keys",
                Map.of("name", "test key", "scopes", List.of("*")))
            .text("/key");
    return new ApiTest.TenantClient(tenantId, key, new ApiClient(baseUrl, key));
  }
}
