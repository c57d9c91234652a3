package com.crmflow.api.secret;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.shared.secret.SecretCipher;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * An api-server with no secrets key of its own (only a previous key) cannot seal, so it refuses to
 * re-seal and changes nothing, rather than reporting every stored value as unreadable.
 */
@TestPropertySource(
    properties = {
      "crm.secrets.key=",
      "crm.secrets.key-file=",
      "crm.secrets.previous-keys=" + SecretResealWithoutKeyTest.OLD_KEY
    })
@DirtiesContext
class SecretResealWithoutKeyTest extends ApiTest {

  static final String OLD_KEY = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";

  private final SecretCipher old = new SecretCipher(OLD_KEY, "");

  private byte[] chatToken(UUID tenant) {
    return jdbc.sql("select token_ciphertext from chat_integration where tenant_id = ?")
        .param(tenant)
        .query(byte[].class)
        .single();
  }

  private byte[] signingSecret(UUID subscription) {
    return jdbc.sql("select secret_ciphertext from webhook_subscription where id = ?")
        .param(subscription)
        .query(byte[].class)
        .single();
  }

  private String nodes(String seq) {
    return jdbc.sql("select nodes::text from canvas_version where sequence_id = ?")
        .param(UUID.fromString(seq))
        .query(String.class)
        .single();
  }

  @Test
  void withoutAKeyTheResealIsRefusedAndNothingChanges() {
    TenantClient tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String seq = SequenceSupport.automation(tenant.api(), "No key");
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + seq + "/canvas",
                chain(
                    hook,
                    node(
                        "call",
                        "http_request",
                        http(
                            "POST",
                            "https://api.example.com/in",
                            "headers",
                            Map.of("Accept", "application/json")))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    String bearer = old.seal(tenant.id(), "Bearer sk-" + UUID.randomUUID());
    jdbc.sql(
            """
            update canvas_version set nodes =
              jsonb_set(nodes, '{1,data,config,headers,Authorization}', to_jsonb(?::text))
            where sequence_id = ?
            """)
        .param(bearer)
        .param(UUID.fromString(seq))
        .update();
    jdbc.sql(
            """
            insert into chat_integration (tenant_id, provider, token_ciphertext, token_hint,
                                          base_url)
            values (?, 'slack', ?, '…old', 'https://slack.example.com/api')
            """)
        .param(tenant.id())
        .param(old.encrypt("xoxb-old"))
        .update();
    UUID subscription = UUID.randomUUID();
    jdbc.sql(
            """
            insert into webhook_subscription (id, tenant_id, url, events, secret_ciphertext)
            values (?, ?, 'https://hooks.example.com/in', '{contact.created}', ?)
            """)
        .param(subscription)
        .param(tenant.id())
        .param(old.encrypt("whsig-old"))
        .update();
    String nodesBefore = nodes(seq);
    byte[] chatBefore = chatToken(tenant.id());
    byte[] signingBefore = signingSecret(subscription);

    ApiResponse refused = admin().post("/admin/v1/secrets/reseal", Map.of());

    assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.text("/detail"))
        .contains("no secrets key", "crm.secrets.key", "Nothing was changed");
    assertThat(refused.at("/unreadable").isMissingNode()).isTrue();
    assertThat(nodes(seq)).isEqualTo(nodesBefore).contains(bearer);
    assertThat(chatToken(tenant.id())).isEqualTo(chatBefore);
    assertThat(signingSecret(subscription)).isEqualTo(signingBefore);
    assertThat(old.decrypt(chatToken(tenant.id()))).isEqualTo("xoxb-old");
  }
}
