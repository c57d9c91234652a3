package com.crmflow.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.WorkerProcess;
import com.crmflow.shared.outbound.IntegrationProperties;
import com.crmflow.shared.secret.SecretCipher;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The crm.* settings: docs/configuration.md lists exactly the properties the configuration metadata
 * holds, with their defaults, and a bad value stops the start naming its property (Spring Boot's
 * failure analysis prints the binding errors asserted here as "Property: crm.…").
 */
class ConfigurationTest {

  private static final Path DOC = Path.of("../docs/configuration.md");

  /** A table row's first cell: `crm.a.b` and further `.c` or `crm.x` names after " / ". */
  private static final Pattern FIRST_CELL = Pattern.compile("^\\| (`[^|]+) \\| ([^|]*) \\|");

  private static final Pattern NAME = Pattern.compile("`([a-z.\\-]+)`");

  @Configuration
  @EnableConfigurationProperties({CrmProperties.class, IntegrationProperties.class})
  static class Settings {}

  private final ApplicationContextRunner context =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
          .withUserConfiguration(Settings.class);

  /** name → default as the metadata of the modules (api-server, service-shared) gives it. */
  private static Map<String, String> metadata() throws IOException {
    Map<String, String> properties = new TreeMap<>();
    List<URL> files =
        Collections.list(
            ConfigurationTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
    for (URL file : files) {
      try (InputStream in = file.openStream()) {
        for (JsonNode property : new JsonMapper().readTree(in).get("properties")) {
          String name = property.get("name").asString();
          if (name.startsWith("crm.")) {
            JsonNode value = property.get("defaultValue");
            properties.put(name, value == null ? null : defaultText(value));
          }
        }
      }
    }
    return properties;
  }

  private static String defaultText(JsonNode value) {
    if (value.isArray()) {
      List<String> items = value.valueStream().map(JsonNode::asString).toList();
      return String.join(",", items);
    }
    String text = value.asString();
    // a list default of a record component is written as "[a, b]"
    return text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
  }

  /** name → default cell, for each crm.* name the document's tables list. */
  private static Map<String, String> documented() throws IOException {
    Map<String, String> documented = new TreeMap<>();
    for (String line : Files.readAllLines(DOC)) {
      Matcher row = FIRST_CELL.matcher(line);
      if (!row.find()) {
        continue;
      }
      String first = null;
      Matcher name = NAME.matcher(row.group(1));
      while (name.find()) {
        String found = name.group(1);
        if (found.startsWith(".") && first != null) {
          found = first.substring(0, first.lastIndexOf('.')) + found;
        } else if (first == null) {
          first = found;
        }
        if (found.startsWith("crm.")) {
          documented.put(found, row.group(2).trim());
        }
      }
    }
    return documented;
  }

  @Test
  void theDocumentListsEveryPropertyAndNoOther() throws IOException {
    Map<String, String> metadata = metadata();
    assertThat(metadata).as("metadata of both modules").containsKey("crm.runs.reconcile-interval");
    assertThat(metadata).containsKey("crm.mail.from");

    assertThat(new TreeSet<>(documented().keySet()))
        .as("crm.* properties in docs/configuration.md")
        .isEqualTo(new TreeSet<>(metadata.keySet()));
  }

  @Test
  void eachDocumentedDefaultIsTheRealOne() throws IOException {
    Map<String, String> documented = documented();
    metadata()
        .forEach(
            (name, value) -> {
              String cell = documented.get(name);
              if (value != null && !cell.contains(" / ")) {
                assertThat(cell.replace(" ", "").replace("`", "").toLowerCase(Locale.ROOT))
                    .as("default of " + name)
                    .contains(value.replace(" ", "").toLowerCase(Locale.ROOT));
              }
            });
  }

  @Test
  void aBadValueStopsTheStartNamingTheProperty() {
    context
        .withPropertyValues("crm.runs.reconcile-grace-seconds=-1")
        .run(
            started ->
                assertThat(started.getStartupFailure())
                    .isNotNull()
                    .hasStackTraceContaining("Binding validation errors on crm")
                    .hasStackTraceContaining("runs.reconcileGraceSeconds': rejected value [-1]"));
    context
        .withPropertyValues("crm.trigger.admission.max-wait=soon")
        .run(
            started ->
                assertThat(started.getStartupFailure())
                    .isNotNull()
                    .hasStackTraceContaining("crm.trigger.admission.max-wait"));
    context
        .withPropertyValues("crm.trigger.admission.max-due-time=-1s")
        .run(
            started ->
                assertThat(started.getStartupFailure())
                    .isNotNull()
                    .hasStackTraceContaining("max-due-time must not be negative"));
    context
        .withPropertyValues("crm.mail.from= ")
        .run(
            started ->
                assertThat(started.getStartupFailure())
                    .isNotNull()
                    .hasStackTraceContaining("Binding validation errors on crm")
                    .hasStackTraceContaining("field 'mail.from'"));
  }

  @Test
  void aChainDepthBelowOneStopsTheStart() {
    context
        .withPropertyValues("crm.events.max-chain-depth=0")
        .run(
            started ->
                assertThat(started.getStartupFailure())
                    .isNotNull()
                    .hasStackTraceContaining("Binding validation errors on crm")
                    .hasStackTraceContaining("events.maxChainDepth': rejected value [0]"));
    context.run(
        started ->
            assertThat(started.getBean(CrmProperties.class).events().maxChainDepth()).isEqualTo(5));
  }

  @Test
  void theDefaultsStart() {
    context.run(
        started -> {
          assertThat(started).hasNotFailed();
          CrmProperties properties = started.getBean(CrmProperties.class);
          assertThat(properties.webhooks().retrySchedule()).hasSize(8);
          assertThat(properties.runs().reconcileInterval()).hasSeconds(5);
          assertThat(started.getBean(IntegrationProperties.class).mail().from())
              .isEqualTo("automation@crmflow.local");
        });
  }

  @Test
  void theDistributedProfileDoesNotStartWithoutTheSharedSecretsKey(@TempDir Path dir) {
    Path keyFile = dir.resolve("secrets.key");
    ApplicationContextRunner withCipher = context.withBean(SecretCipher.class);
    withCipher
        .withPropertyValues("spring.profiles.active=distributed", "crm.secrets.key-file=" + keyFile)
        .run(
            started -> {
              assertThat(started.getStartupFailure())
                  .isNotNull()
                  .hasStackTraceContaining(
                      "The distributed profile needs an explicit secrets key: set crm.secrets.key")
                  .hasStackTraceContaining(keyFile + " does not")
                  .hasStackTraceContaining(
                      "a key one process makes for itself cannot unseal the secrets another"
                          + " process sealed");
              assertThat(keyFile).doesNotExist();
            });
    withCipher
        .withPropertyValues(
            "spring.profiles.active=distributed",
            "crm.secrets.key=" + Base64.getEncoder().encodeToString(new byte[32]))
        .run(started -> assertThat(started).hasNotFailed());
    // the embedded default makes its key file
    withCipher
        .withPropertyValues("crm.secrets.key-file=" + keyFile)
        .run(
            started -> {
              assertThat(started).hasNotFailed();
              assertThat(keyFile).exists();
            });
    withCipher
        .withPropertyValues("spring.profiles.active=distributed", "crm.secrets.key-file=" + keyFile)
        .run(started -> assertThat(started).hasNotFailed());
  }

  @Test
  void theWorkerDoesNotStartWithoutTheSharedSecretsKey() throws Exception {
    WorkerProcess worker = WorkerProcess.start("127.0.0.1:1");
    assertThat(worker.awaitExit())
        .contains("The distributed profile needs an explicit secrets key")
        .contains("Every api-server and workflow-worker must share one key")
        .doesNotContain("Started WorkflowWorkerApplication");
  }
}
