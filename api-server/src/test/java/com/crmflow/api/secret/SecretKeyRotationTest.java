package com.crmflow.api.secret;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.worker.secret.SecretCipher;
import com.crmflow.workflow.canvas.NodeSecrets;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A key rotation end to end: the service seals with its new key, still unseals what the old key
 * sealed (with a key id, and from before key ids), and the admin re-seal rewrites every stored
 * secret (canvas node secrets, chat integration tokens, webhook signing secrets) with the new key,
 * leaving what no key opens as it is.
 */
@TestPropertySource(
    properties = {
      "crm.secrets.key=" + SecretKeyRotationTest.NEW_KEY,
      "crm.secrets.previous-keys=" + SecretKeyRotationTest.OLD_KEY
    })
@DirtiesContext
class SecretKeyRotationTest extends ApiTest {

  static final String OLD_KEY = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
  static final String NEW_KEY = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=";
  private static final String LOST_KEY = "AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM=";

  private static final String TOKEN = "whsec-" + UUID.randomUUID();
  private static final String BEARER = "Bearer sk-" + UUID.randomUUID();
  private static final String API_KEY = "key-" + UUID.randomUUID();

  private final SecretCipher old = new SecretCipher(OLD_KEY, "");
  private final SecretCipher current = new SecretCipher(NEW_KEY, "");

  /** Nonce, cipher text and tag, no key id: how values were sealed before key ids. */
  private static byte[] sealedWithoutKeyId(String key, String plain, byte[] associatedData)
      throws Exception {
    byte[] nonce = new byte[12];
    nonce[3] = 7;
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.ENCRYPT_MODE,
        new SecretKeySpec(Base64.getDecoder().decode(key), "AES"),
        new GCMParameterSpec(128, nonce));
    if (associatedData != null) {
      cipher.updateAAD(associatedData);
    }
    byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
    return ByteBuffer.allocate(12 + sealed.length).put(nonce).put(sealed).array();
  }

  private static String keyIdOf(String sealedNodeSecret) {
    return keyIdOf(Base64.getDecoder().decode(NodeSecrets.cipherText(sealedNodeSecret)));
  }

  private static String keyIdOf(byte[] stored) {
    return HexFormat.of().formatHex(stored, 3, 11);
  }

  private Map<String, Object> flow(String hook, String url) {
    Map<String, Object> headers = new LinkedHashMap<>();
    headers.put("Authorization", BEARER);
    headers.put("X-Api-Key", API_KEY);
    headers.put("X-Run-Token", "t-{{trigger.token}}");
    Map<String, Object> flow =
        chain(hook, node("call", "http_request", http("POST", url, "headers", headers)));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> nodes =
        new ArrayList<>((List<Map<String, Object>>) flow.get("nodes"));
    nodes.set(0, node(hook, "webhook_trigger", Map.of("secretToken", TOKEN)));
    return Map.of("nodes", nodes, "edges", flow.get("edges"));
  }

  private String stored(String seq, String pointer) {
    return jdbc.sql("select nodes #>> ?::text[] from canvas_version where sequence_id = ?")
        .param(pointer)
        .param(UUID.fromString(seq))
        .query(String.class)
        .single();
  }

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

  @Test
  void theOldKeyStillUnsealsAndTheResealMovesEveryStoredSecretToTheNewKey() throws Exception {
    TenantClient tenant = newTenant();
    try (LocalHttpServer receiver = new LocalHttpServer()) {
      String hook = SequenceSupport.uniqueId("hook");
      String seq = SequenceSupport.automation(tenant.api(), "Rotation");
      assertThat(
              tenant
                  .api()
                  .put("/api/sequences/" + seq + "/canvas", flow(hook, receiver.url("/in")))
                  .status())
          .isEqualTo(200);
      String runToken = stored(seq, "{1,data,config,headers,X-Run-Token}");
      assertThat(keyIdOf(runToken)).isEqualTo(current.currentKeyId());
      // stored as the old key sealed them: with its key id, and from before key ids
      String legacyApiKey =
          NodeSecrets.SEALED_PREFIX
              + Base64.getEncoder()
                  .encodeToString(
                      sealedWithoutKeyId(
                          OLD_KEY,
                          API_KEY,
                          ("tenant:" + tenant.id()).getBytes(StandardCharsets.UTF_8)));
      jdbc.sql(
              """
              update canvas_version set nodes =
                jsonb_set(jsonb_set(jsonb_set(nodes,
                  '{0,data,config,secretToken}', to_jsonb(?::text)),
                  '{1,data,config,headers,Authorization}', to_jsonb(?::text)),
                  '{1,data,config,headers,X-Api-Key}', to_jsonb(?::text))
              where sequence_id = ?
              """)
          .param(old.seal(tenant.id(), TOKEN))
          .param(old.seal(tenant.id(), BEARER))
          .param(legacyApiKey)
          .param(UUID.fromString(seq))
          .update();
      assertThat(
              tenant.api().patch("/api/v1/sequences/" + seq, Map.of("status", "active")).status())
          .isEqualTo(200);

      assertThat(
              tenant
                  .api()
                  .put("/api/v1/integrations/chat", Map.of("bot_token", "xoxb-rotated"))
                  .status())
          .isEqualTo(200);
      jdbc.sql("update chat_integration set token_ciphertext = ? where tenant_id = ?")
          .param(old.encrypt("xoxb-rotated"))
          .param(tenant.id())
          .update();
      UUID subscription = UUID.randomUUID();
      jdbc.sql(
              """
              insert into webhook_subscription (id, tenant_id, url, events, secret_ciphertext)
              values (?, ?, 'https://hooks.example.com/in', '{contact.created}', ?)
              """)
          .param(subscription)
          .param(tenant.id())
          .param(sealedWithoutKeyId(OLD_KEY, "whsig-rotated", null))
          .update();
      // a value no key of the service opens
      TenantClient lost = newTenant();
      jdbc.sql(
              """
              insert into chat_integration (tenant_id, provider, token_ciphertext, token_hint,
                                            base_url)
              values (?, 'slack', ?, '…lost', 'https://slack.example.com/api')
              """)
          .param(lost.id())
          .param(new SecretCipher(LOST_KEY, "").encrypt("xoxb-lost"))
          .update();
      byte[] lostBefore = chatToken(lost.id());

      // before the re-seal, the old key's values work
      ApiResponse accepted =
          anonymous()
              .withHeader("X-Webhook-Secret", TOKEN)
              .post("/api/webhooks/automation/" + tenant.id() + "/" + hook, Map.of("token", "abc"));
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
      JsonNode run = SequenceSupport.awaitRun(tenant.api(), accepted.text("/runId"));
      assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
      LocalHttpServer.Received call = receiver.received("/in").get(0);
      assertThat(call.header("Authorization")).isEqualTo(BEARER);
      assertThat(call.header("X-Api-Key")).isEqualTo(API_KEY);
      assertThat(call.header("X-Run-Token")).isEqualTo("t-abc");

      ApiResponse resealed = admin().post("/admin/v1/secrets/reseal", Map.of());
      assertThat(resealed.status()).as(resealed.toString()).isEqualTo(200);
      assertThat(resealed.text("/key_id")).isEqualTo(current.currentKeyId());
      assertThat(resealed.at("/canvas_node_secrets").asInt()).isEqualTo(3);
      assertThat(resealed.at("/chat_integration_tokens").asInt()).isEqualTo(1);
      assertThat(resealed.at("/webhook_signing_secrets").asInt()).isEqualTo(1);
      assertThat(resealed.at("/unreadable").size()).isEqualTo(1);
      assertThat(resealed.at("/unreadable/0/kind").asString()).isEqualTo("chat_integration_token");
      assertThat(resealed.at("/unreadable/0/tenant_id").asString()).isEqualTo(lost.id().toString());
      assertThat(resealed.toString()).doesNotContain("xoxb", TOKEN, BEARER, API_KEY);

      // every stored value names the new key and opens with it alone
      String storedToken = stored(seq, "{0,data,config,secretToken}");
      String storedBearer = stored(seq, "{1,data,config,headers,Authorization}");
      String storedApiKey = stored(seq, "{1,data,config,headers,X-Api-Key}");
      for (String value : List.of(storedToken, storedBearer, storedApiKey)) {
        assertThat(keyIdOf(value)).isEqualTo(current.currentKeyId());
      }
      assertThat(current.unseal(tenant.id(), storedToken)).isEqualTo(TOKEN);
      assertThat(current.unseal(tenant.id(), storedBearer)).isEqualTo(BEARER);
      assertThat(current.unseal(tenant.id(), storedApiKey)).isEqualTo(API_KEY);
      assertThat(stored(seq, "{1,data,config,headers,X-Run-Token}")).isEqualTo(runToken);
      assertThat(keyIdOf(chatToken(tenant.id()))).isEqualTo(current.currentKeyId());
      assertThat(current.decrypt(chatToken(tenant.id()))).isEqualTo("xoxb-rotated");
      assertThat(keyIdOf(signingSecret(subscription))).isEqualTo(current.currentKeyId());
      assertThat(current.decrypt(signingSecret(subscription))).isEqualTo("whsig-rotated");
      assertThat(chatToken(lost.id())).isEqualTo(lostBefore);

      ApiResponse again = admin().post("/admin/v1/secrets/reseal", Map.of());
      assertThat(again.at("/canvas_node_secrets").asInt()).isZero();
      assertThat(again.at("/chat_integration_tokens").asInt()).isZero();
      assertThat(again.at("/webhook_signing_secrets").asInt()).isZero();
      assertThat(again.at("/unreadable").size()).isEqualTo(1);
      assertThat(anonymous().post("/admin/v1/secrets/reseal", Map.of()).status()).isEqualTo(401);
    }
  }
}
