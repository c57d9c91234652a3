package com.crmflow.api.emailtemplate;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmailTemplateApiTest extends ApiTest {

  @Test
  void crud() {
    var tenant = newTenant();
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/email-templates",
                Map.of(
                    "name",
                    "Welcome",
                    "subject",
                    "Hi {{contact.first_name}}",
                    "html_body",
                    "<p>Hello {{contact.first_name}}</p>",
                    "text_body",
                    "Hello"));
    assertThat(created.status()).isEqualTo(201);
    String id = created.text("/email_template/id");
    assertThat(created.text("/email_template/subject")).isEqualTo("Hi {{contact.first_name}}");

    ApiResponse patched =
        tenant.api().patch("/api/v1/email-templates/" + id, Map.of("subject", "Welcome aboard"));
    assertThat(patched.text("/email_template/subject")).isEqualTo("Welcome aboard");
    assertThat(patched.text("/email_template/html_body"))
        .isEqualTo("<p>Hello {{contact.first_name}}</p>");
    assertThat(tenant.api().get("/api/v1/email-templates").at("/email_templates").size())
        .isEqualTo(1);
    assertThat(tenant.api().get("/api/v1/email-templates/" + id).text("/email_template/name"))
        .isEqualTo("Welcome");

    assertThat(tenant.api().post("/api/v1/email-templates", Map.of("name", "No subject")).status())
        .isEqualTo(400);
    assertThat(tenant.api().delete("/api/v1/email-templates/" + id).at("/deleted").asBoolean())
        .isTrue();
    assertThat(tenant.api().get("/api/v1/email-templates/" + id).status()).isEqualTo(404);
  }
}
