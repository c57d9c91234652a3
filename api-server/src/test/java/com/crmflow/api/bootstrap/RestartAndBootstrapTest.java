package com.crmflow.api.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.CrmApiApplication;
import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** Whole-service starts on one data directory, as a user would run it twice. */
@ExtendWith(OutputCaptureExtension.class)
class RestartAndBootstrapTest {

  private static ConfigurableApplicationContext start(Path dataDir, String... extra) {
    String[] base = {
      "--server.port=0",
      "--crm.data-dir=" + dataDir,
      "--crm.embedded.temporal-port=0",
      "--crm.embedded.temporal-ui-port=0",
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return new SpringApplicationBuilder(CrmApiApplication.class).run(args);
  }

  private static ApiClient client(ConfigurableApplicationContext context, String key) {
    String port = context.getEnvironment().getProperty("local.server.port");
    return new ApiClient("http://127.0.0.1:" + port, key);
  }

  @Test
  void firstRunPrintsAWorkingKeyAndDataSurvivesARestart(@TempDir Path dataDir, CapturedOutput out) {
    String key;
    String contactId;
    try (var first = start(dataDir)) {
      Matcher printed = Pattern.compile("\\s(crm_[A-Za-z0-9_-]{43})\\s").matcher(out.getOut());
      assertThat(printed.find()).as("the first start prints a key").isTrue();
      key = printed.group(1);
      assertThat(out.getOut()).contains("CRM service listening on http://localhost:");
      ApiResponse created =
          client(first, key)
              .post("/api/v1/contacts", Map.of("email", "kept@example.com", "first_name", "Kept"));
      assertThat(created.status()).isEqualTo(201);
      contactId = created.text("/contact/id");
    }
    int printedKeys = countKeys(out.getOut());

    try (var second = start(dataDir)) {
      assertThat(countKeys(out.getOut()))
          .as("no new key on the second start")
          .isEqualTo(printedKeys);
      ApiResponse read = client(second, key).get("/api/v1/contacts/" + contactId);
      assertThat(read.status()).isEqualTo(200);
      assertThat(read.text("/contact/first_name")).isEqualTo("Kept");
    }
  }

  @Test
  void configuredBootstrapKeyIsCreatedOnceInTheDefaultTenant(@TempDir Path dataDir) {
    String bootstrapKey = "operator-chosen-bootstrap-key-0123456789";
    String firstTenantContact;
    try (var first = start(dataDir, "--crm.bootstrap.api-key=" + bootstrapKey)) {
      ApiResponse created =
          client(first, bootstrapKey).post("/api/v1/contacts", Map.of("email", "b@example.com"));
      assertThat(created.status()).isEqualTo(201);
      firstTenantContact = created.text("/contact/id");
    }
    try (var second = start(dataDir, "--crm.bootstrap.api-key=" + bootstrapKey)) {
      var jdbc = second.getBean(org.springframework.jdbc.core.simple.JdbcClient.class);
      assertThat(jdbc.sql("select count(*) from tenant").query(Integer.class).single())
          .isEqualTo(1);
      assertThat(jdbc.sql("select count(*) from api_key").query(Integer.class).single())
          .isEqualTo(1);
      assertThat(jdbc.sql("select scopes::text from api_key").query(String.class).single())
          .isEqualTo("{*}");
      ApiResponse read = client(second, bootstrapKey).get("/api/v1/contacts/" + firstTenantContact);
      assertThat(read.status()).isEqualTo(200);
    }
  }

  private static int countKeys(String output) {
    Matcher m = Pattern.compile("shown only this once").matcher(output);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
