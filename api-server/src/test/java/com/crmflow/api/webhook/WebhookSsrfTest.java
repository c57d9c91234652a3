package com.crmflow.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/** With the production setting (internal addresses refused), every spelling of one is a 400. */
// a configuration of its own: its service stops after the class instead of idling beside the others
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@TestPropertySource(properties = "crm.http.allow-private-addresses=false")
class WebhookSsrfTest extends ApiTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://2130706433/hook",
        "https://0177.0.0.1/hook",
        "https://0x7f.0.0.1/hook",
        "https://127.1/hook",
        "https://[::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "https://[::ffff:a9fe:a9fe]/latest/meta-data",
        "https://169.254.169.254/latest/meta-data",
        "https://[fd00:ec2::254]/latest/meta-data",
        "https://10.1.2.3/hook",
        "https://172.20.0.1/hook",
        "https://192.168.0.10/hook",
        "https://100.64.0.1/hook",
        "https://0.0.0.0/hook",
        "https://[fe80::1]/hook"
      })
  void internalAddressesAreRefused(String url) {
    TenantClient tenant = newTenant();
    ApiResponse refused =
        tenant
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of("url", url, "events", List.of("contact.created")));
    assertThat(refused.status()).as(url).isEqualTo(400);
    assertThat(refused.at("/errors/0/field").asString()).isEqualTo("url");
    assertThat(refused.at("/errors/0/message").asString()).contains("internal");
    assertThat(tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions").size()).isZero();
  }
}
