package com.crmflow.api.secret;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.LocalHttpServer;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.node.NodeSecrets;
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
 * sealed (with a key id, and without one), and the admin re-seal rewrites every stored secret
 * (canvas node secrets, chat integration tokens, webhook signing secrets) with the new key, leaving
 * what no key opens as it is.
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

  /** Nonce, cipher text and tag, no key id: a value sealed without a key id. */
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

  /** The answer's {@code remaining}, which it must carry. */
  private static int remaining(ApiResponse answer) {
    JsonNode remaining = answer.at("/remaining");
    assertThat(remaining.isIntegralNumber()).as(answer.toString()).isTrue();
    return remaining.asInt();
  }

  /** The values of the answer's {@code unreadable} that belong to this tenant. */
  private static List<JsonNode> unreadableOf(ApiResponse answer, UUID tenant) {
    List<JsonNode> found = new ArrayList<>();
    for (JsonNode value : answer.at("/unreadable")) {
      if (value.get("tenant_id").asString().equals(tenant.toString())) {
        found.add(value);
      }
    }
    return found;
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
      // stored as the old key sealed them: with its key id, and without a key id
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
      assertThat(remaining(resealed)).isZero();
      List<JsonNode> lostValues = unreadableOf(resealed, lost.id());
      assertThat(lostValues).hasSize(1);
      assertThat(lostValues.get(0).get("kind").asString()).isEqualTo("chat_integration_token");
      assertThat(unreadableOf(resealed, tenant.id())).isEmpty();
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
      assertThat(remaining(again)).isZero();
      assertThat(unreadableOf(again, lost.id())).hasSize(1);
      assertThat(anonymous().post("/admin/v1/secrets/reseal", Map.of()).status()).isEqualTo(401);
    }
  }

  private String stored(String seq, int version, String pointer) {
    return jdbc.sql(
            "select nodes #>> ?::text[] from canvas_version where sequence_id = ? and version = ?")
        .param(pointer)
        .param(UUID.fromString(seq))
        .param(version)
        .query(String.class)
        .single();
  }

  private int onlyVersion(String seq) {
    return jdbc.sql("select version from canvas_version where sequence_id = ?")
        .param(UUID.fromString(seq))
        .query(Integer.class)
        .single();
  }

  /** A saved automation whose three node secrets are then stored as these values. */
  private String automationWithSecrets(
      TenantClient tenant, String url, String token, String bearer, String apiKey) {
    String hook = SequenceSupport.uniqueId("hook");
    String seq = SequenceSupport.automation(tenant.api(), "Rotation");
    ApiResponse saved = tenant.api().put("/api/sequences/" + seq + "/canvas", flow(hook, url));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    jdbc.sql(
            """
            update canvas_version set nodes =
              jsonb_set(jsonb_set(jsonb_set(nodes,
                '{0,data,config,secretToken}', to_jsonb(?::text)),
                '{1,data,config,headers,Authorization}', to_jsonb(?::text)),
                '{1,data,config,headers,X-Api-Key}', to_jsonb(?::text))
            where sequence_id = ?
            """)
        .param(token)
        .param(bearer)
        .param(apiKey)
        .param(UUID.fromString(seq))
        .update();
    return seq;
  }

  @Test
  void aDamagedSealedValueIsReportedAsUnreadableAndTheResealGoesOnPastIt() {
    TenantClient tenant = newTenant();
    String damaged = NodeSecrets.SEALED_PREFIX + "%%not-base64%%";
    String seq =
        automationWithSecrets(
            tenant,
            "https://api.example.com/in",
            damaged,
            old.seal(tenant.id(), BEARER),
            old.seal(tenant.id(), API_KEY));
    int version = onlyVersion(seq);
    assertThat(
            tenant
                .api()
                .put("/api/v1/integrations/chat", Map.of("bot_token", "xoxb-after-damage"))
                .status())
        .isEqualTo(200);
    jdbc.sql("update chat_integration set token_ciphertext = ? where tenant_id = ?")
        .param(old.encrypt("xoxb-after-damage"))
        .param(tenant.id())
        .update();

    ApiResponse resealed = admin().post("/admin/v1/secrets/reseal", Map.of());

    assertThat(resealed.status()).as(resealed.toString()).isEqualTo(200);
    assertThat(resealed.at("/canvas_node_secrets").asInt()).isEqualTo(2);
    assertThat(resealed.at("/chat_integration_tokens").asInt()).isEqualTo(1);
    assertThat(remaining(resealed)).isZero();
    List<JsonNode> unreadable = unreadableOf(resealed, tenant.id());
    assertThat(unreadable).hasSize(1);
    assertThat(unreadable.get(0).get("kind").asString()).isEqualTo("canvas_node_secret");
    assertThat(unreadable.get(0).get("where").asString())
        .contains("sequence " + seq, "version " + version, "secretToken");
    // the damaged value is left as it is; the others of its canvas, and the chat token after it,
    // name the new key
    assertThat(stored(seq, version, "{0,data,config,secretToken}")).isEqualTo(damaged);
    String bearer = stored(seq, version, "{1,data,config,headers,Authorization}");
    String apiKey = stored(seq, version, "{1,data,config,headers,X-Api-Key}");
    assertThat(keyIdOf(bearer)).isEqualTo(current.currentKeyId());
    assertThat(keyIdOf(apiKey)).isEqualTo(current.currentKeyId());
    assertThat(current.unseal(tenant.id(), bearer)).isEqualTo(BEARER);
    assertThat(current.unseal(tenant.id(), apiKey)).isEqualTo(API_KEY);
    assertThat(keyIdOf(chatToken(tenant.id()))).isEqualTo(current.currentKeyId());
    assertThat(current.decrypt(chatToken(tenant.id()))).isEqualTo("xoxb-after-damage");
  }

  /**
   * The answer of a re-seal during which every rewrite of a version of this automation that matches
   * {@code when} (SQL over {@code old}) writes the next version as a copy of the version as it was:
   * a canvas saved while the re-seal runs, copying values the old key sealed.
   */
  private ApiResponse resealWhileCopying(String seq, String when) {
    String suffix = UUID.randomUUID().toString().replace("-", "");
    jdbc.sql(
            """
            create function copy_during_reseal_%s() returns trigger language plpgsql as $f$
            begin
              insert into canvas_version (tenant_id, sequence_id, version, nodes, edges)
              values (old.tenant_id, old.sequence_id, old.version + 1, old.nodes, old.edges);
              return new;
            end
            $f$
            """
                .formatted(suffix))
        .update();
    jdbc.sql(
            """
            create trigger copy_during_reseal_%s after update on canvas_version for each row
            when (old.sequence_id = '%s' and %s)
            execute function copy_during_reseal_%s()
            """
                .formatted(suffix, seq, when, suffix))
        .update();
    try {
      return admin().post("/admin/v1/secrets/reseal", Map.of());
    } finally {
      jdbc.sql("drop trigger copy_during_reseal_%s on canvas_version".formatted(suffix)).update();
      jdbc.sql("drop function copy_during_reseal_%s()".formatted(suffix)).update();
    }
  }

  @Test
  void aVersionWrittenWhileTheResealRunsIsResealedToo() {
    TenantClient tenant = newTenant();
    String seq =
        automationWithSecrets(
            tenant,
            "https://api.example.com/in",
            old.seal(tenant.id(), TOKEN),
            old.seal(tenant.id(), BEARER),
            old.seal(tenant.id(), API_KEY));
    int version = onlyVersion(seq);
    // a canvas save racing the re-seal: when the re-seal rewrites this version, a new version
    // copying its old-key values is written, after the re-seal listed the versions
    ApiResponse resealed = resealWhileCopying(seq, "old.version = " + version);

    assertThat(resealed.status()).as(resealed.toString()).isEqualTo(200);
    assertThat(resealed.at("/canvas_node_secrets").asInt()).isEqualTo(6);
    assertThat(remaining(resealed)).isZero();
    assertThat(unreadableOf(resealed, tenant.id())).isEmpty();
    assertThat(
            jdbc.sql("select count(*) from canvas_version where sequence_id = ?")
                .param(UUID.fromString(seq))
                .query(Integer.class)
                .single())
        .isEqualTo(2);
    for (int v : List.of(version, version + 1)) {
      String token = stored(seq, v, "{0,data,config,secretToken}");
      String bearer = stored(seq, v, "{1,data,config,headers,Authorization}");
      String apiKey = stored(seq, v, "{1,data,config,headers,X-Api-Key}");
      for (String value : List.of(token, bearer, apiKey)) {
        assertThat(keyIdOf(value)).as("version " + v).isEqualTo(current.currentKeyId());
      }
      assertThat(current.unseal(tenant.id(), token)).isEqualTo(TOKEN);
      assertThat(current.unseal(tenant.id(), bearer)).isEqualTo(BEARER);
      assertThat(current.unseal(tenant.id(), apiKey)).isEqualTo(API_KEY);
    }

    ApiResponse again = admin().post("/admin/v1/secrets/reseal", Map.of());
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.at("/canvas_node_secrets").asInt()).isZero();
    assertThat(remaining(again)).isZero();
  }

  @Test
  void whatIsStillWrittenAfterTheLastPassIsAnsweredAsRemaining() {
    TenantClient tenant = newTenant();
    String seq =
        automationWithSecrets(
            tenant,
            "https://api.example.com/in",
            old.seal(tenant.id(), TOKEN),
            old.seal(tenant.id(), BEARER),
            old.seal(tenant.id(), API_KEY));
    int first = onlyVersion(seq);
    // every rewrite writes a further old-key version: each pass leaves one behind
    ApiResponse resealed = resealWhileCopying(seq, "true");

    int passes = StoredSecretsReseal.MAX_PASSES;
    assertThat(resealed.status()).as(resealed.toString()).isEqualTo(200);
    assertThat(resealed.at("/canvas_node_secrets").asInt()).isEqualTo(3 * passes);
    assertThat(remaining(resealed)).isEqualTo(3);
    assertThat(unreadableOf(resealed, tenant.id())).isEmpty();
    int last = first + passes;
    assertThat(
            jdbc.sql("select max(version) from canvas_version where sequence_id = ?")
                .param(UUID.fromString(seq))
                .query(Integer.class)
                .single())
        .isEqualTo(last);
    assertThat(keyIdOf(stored(seq, last - 1, "{1,data,config,headers,Authorization}")))
        .isEqualTo(current.currentKeyId());
    assertThat(keyIdOf(stored(seq, last, "{1,data,config,headers,Authorization}")))
        .isEqualTo(old.currentKeyId());

    // run again, as the operations guide says, until nothing remains
    ApiResponse again = admin().post("/admin/v1/secrets/reseal", Map.of());
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.at("/canvas_node_secrets").asInt()).isEqualTo(3);
    assertThat(remaining(again)).isZero();
    for (String pointer :
        List.of(
            "{0,data,config,secretToken}",
            "{1,data,config,headers,Authorization}",
            "{1,data,config,headers,X-Api-Key}")) {
      assertThat(keyIdOf(stored(seq, last, pointer))).isEqualTo(current.currentKeyId());
    }
    assertThat(
            current.unseal(tenant.id(), stored(seq, last, "{1,data,config,headers,Authorization}")))
        .isEqualTo(BEARER);
  }
}
