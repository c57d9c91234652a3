package com.crmflow.api.compose;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docker-compose.yml as a file (the stack itself runs in ComposeStackTest): nothing is published
 * beyond this machine, and no secret is written in it; each comes from the environment, which
 * compose refuses to go without.
 */
class ComposeFileTest {

  private static final Path FILE = Path.of("../docker-compose.yml");

  /** Settings whose value is a secret, by their name. */
  private static final Pattern SECRET_NAME = Pattern.compile(".*(KEY|TOKEN|SECRET|PASSWORD|PWD).*");

  /** A required variable (compose stops with the message), or one whose default is empty. */
  private static final Pattern FROM_ENVIRONMENT =
      Pattern.compile("\\$\\{(?<name>[A-Z0-9_]+)(:\\?[^}]+|:-)}");

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> services() throws IOException {
    Map<String, Object> compose = new Yaml().load(Files.readString(FILE));
    return (Map<String, Map<String, Object>>) compose.get("services");
  }

  @Test
  void everyPublishedPortIsOnLoopback() throws IOException {
    List<String> published = new ArrayList<>();
    services()
        .forEach(
            (name, service) -> {
              for (Object port : (List<?>) service.getOrDefault("ports", List.of())) {
                published.add(name + " " + port);
                String host =
                    port instanceof Map<?, ?> map
                        ? String.valueOf(map.get("host_ip"))
                        : String.valueOf(port).split(":")[0];
                assertThat(String.valueOf(port).split(":").length == 3 || port instanceof Map<?, ?>)
                    .as("%s publishes %s with no address: on every interface", name, port)
                    .isTrue();
                assertThat(host).as("%s publishes %s", name, port).isEqualTo("127.0.0.1");
              }
            });
    assertThat(published)
        .as("the API, the Temporal UI and gRPC, Mailpit")
        .anyMatch(p -> p.startsWith("api-server "))
        .anyMatch(p -> p.startsWith("temporal ") && p.endsWith(":7233"))
        .anyMatch(p -> p.startsWith("temporal-ui "));
  }

  @Test
  @SuppressWarnings("unchecked")
  void everySecretComesFromTheEnvironment() throws IOException {
    List<String> secrets = new ArrayList<>();
    services()
        .forEach(
            (name, service) -> {
              Object environment = service.getOrDefault("environment", Map.of());
              ((Map<String, Object>) environment)
                  .forEach(
                      (variable, value) -> {
                        if (!SECRET_NAME.matcher(variable).matches()) {
                          return;
                        }
                        secrets.add(name + " " + variable);
                        var reference = FROM_ENVIRONMENT.matcher(String.valueOf(value));
                        assertThat(reference.matches())
                            .as("%s: %s is written in the file: %s", name, variable, value)
                            .isTrue();
                      });
            });
    assertThat(secrets)
        .contains(
            "api-server CRM_SECRETS_KEY",
            "workflow-worker CRM_SECRETS_KEY",
            "api-server CRM_ADMIN_TOKEN",
            "api-server CRM_BOOTSTRAP_API_KEY",
            "api-server SPRING_DATASOURCE_PASSWORD");
    // the key that seals secrets at rest is required, with how to make one
    for (String service : List.of("api-server", "workflow-worker")) {
      assertThat(((Map<String, Object>) services().get(service).get("environment")))
          .containsEntry(
              "CRM_SECRETS_KEY",
              "${CRM_SECRETS_KEY:?set CRM_SECRETS_KEY to 32 random bytes, base64:"
                  + " openssl rand -base64 32}");
    }
    assertThat(Files.readString(FILE)).doesNotContainPattern("[A-Za-z0-9+/]{40,}={0,2}");
  }
}
