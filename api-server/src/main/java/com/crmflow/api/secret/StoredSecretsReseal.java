package com.crmflow.api.secret;

import com.crmflow.worker.secret.SecretCipher;
import com.crmflow.workflow.canvas.NodeSecrets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Seals every stored secret that another key sealed again with the current key: the node secrets of
 * every canvas version, chat integration tokens and webhook signing secrets. A value is read with
 * whichever of the process's keys sealed it ({@code crm.secrets.key} or one of {@code
 * crm.secrets.previous-keys}); one that none of them opens is left as it is and reported. Safe to
 * run again, and while the service runs: each row is rewritten on its own, only when its value is
 * still the one read.
 */
@Service
public class StoredSecretsReseal {

  private static final Logger log = LoggerFactory.getLogger(StoredSecretsReseal.class);

  private static final TypeReference<List<Map<String, Object>>> NODES = new TypeReference<>() {};

  private final JdbcClient jdbc;
  private final SecretCipher cipher;
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  StoredSecretsReseal(JdbcClient jdbc, SecretCipher cipher) {
    this.jdbc = jdbc;
    this.cipher = cipher;
  }

  /** A stored value none of the keys opens: where it is. */
  public record Unreadable(String kind, UUID tenantId, String where) {}

  /**
   * What a re-seal did.
   *
   * @param keyId the id of the key every re-sealed value names
   * @param canvasNodeSecrets node secrets sealed again, over all canvas versions
   * @param chatIntegrationTokens chat bot tokens sealed again
   * @param webhookSigningSecrets webhook signing secrets sealed again
   * @param unreadable values that none of this process's keys opens, left as they are
   */
  public record Result(
      String keyId,
      int canvasNodeSecrets,
      int chatIntegrationTokens,
      int webhookSigningSecrets,
      List<Unreadable> unreadable) {}

  public Result resealAll() {
    List<Unreadable> unreadable = new ArrayList<>();
    int canvas = canvasVersions(unreadable);
    int chat = chatTokens(unreadable);
    int webhooks = webhookSecrets(unreadable);
    log.info(
        "Re-sealed with key {}: {} canvas node secrets, {} chat integration tokens, {} webhook"
            + " signing secrets; {} values no key opens",
        cipher.currentKeyId(),
        canvas,
        chat,
        webhooks,
        unreadable.size());
    return new Result(cipher.currentKeyId(), canvas, chat, webhooks, unreadable);
  }

  private record VersionKey(UUID tenantId, UUID sequenceId, int version) {}

  private int canvasVersions(List<Unreadable> unreadable) {
    List<VersionKey> keys =
        jdbc.sql(
                """
                select tenant_id, sequence_id, version from canvas_version
                where nodes::text like '%' || :prefix || '%'
                order by tenant_id, sequence_id, version
                """)
            .param("prefix", NodeSecrets.SEALED_PREFIX)
            .query(VersionKey.class)
            .list();
    int resealed = 0;
    for (VersionKey key : keys) {
      String text =
          jdbc.sql(
                  """
                  select nodes::text from canvas_version
                  where tenant_id = :tenantId and sequence_id = :sequenceId and version = :version
                  """)
              .param("tenantId", key.tenantId())
              .param("sequenceId", key.sequenceId())
              .param("version", key.version())
              .query(String.class)
              .single();
      List<Map<String, Object>> nodes = json.readValue(text, NODES);
      int[] count = new int[1];
      boolean changed = false;
      for (Map<String, Object> node : nodes) {
        if (!(node.get("data") instanceof Map<?, ?> data)
            || !(data.get("config") instanceof Map<?, ?> config)) {
          continue;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> before = (Map<String, Object>) config;
        String where =
            "sequence "
                + key.sequenceId()
                + " version "
                + key.version()
                + " node "
                + node.get("id");
        Map<String, Object> after =
            NodeSecrets.rewrite(
                String.valueOf(node.get("type")),
                before,
                (path, value) -> {
                  if (!cipher.needsReseal(value)) {
                    return value;
                  }
                  try {
                    String again = cipher.reseal(key.tenantId(), value);
                    count[0]++;
                    return again;
                  } catch (IllegalStateException e) {
                    unreadable.add(
                        new Unreadable("canvas_node_secret", key.tenantId(), where + " " + path));
                    return value;
                  }
                });
        if (!after.equals(before)) {
          @SuppressWarnings("unchecked")
          Map<String, Object> newData = new LinkedHashMap<>((Map<String, Object>) data);
          newData.put("config", after);
          node.put("data", newData);
          changed = true;
        }
      }
      if (changed) {
        int updated =
            jdbc.sql(
                    """
                    update canvas_version set nodes = :nodes::jsonb
                    where tenant_id = :tenantId and sequence_id = :sequenceId
                      and version = :version and nodes::text = :before
                    """)
                .param("nodes", json.writeValueAsString(nodes))
                .param("tenantId", key.tenantId())
                .param("sequenceId", key.sequenceId())
                .param("version", key.version())
                .param("before", text)
                .update();
        resealed += updated == 1 ? count[0] : 0;
      }
    }
    return resealed;
  }

  private record StoredValue(UUID id, UUID tenantId, byte[] ciphertext) {}

  private int chatTokens(List<Unreadable> unreadable) {
    List<StoredValue> values =
        jdbc.sql(
                """
                select tenant_id as id, tenant_id, token_ciphertext as ciphertext
                from chat_integration
                """)
            .query(StoredValue.class)
            .list();
    int resealed = 0;
    for (StoredValue value : values) {
      byte[] again = resealed(value, "chat_integration_token", unreadable);
      if (again != null) {
        resealed +=
            jdbc.sql(
                    """
                    update chat_integration set token_ciphertext = :again
                    where tenant_id = :tenantId and token_ciphertext = :before
                    """)
                .param("again", again)
                .param("tenantId", value.tenantId())
                .param("before", value.ciphertext())
                .update();
      }
    }
    return resealed;
  }

  private int webhookSecrets(List<Unreadable> unreadable) {
    List<StoredValue> values =
        jdbc.sql(
                """
                select id, tenant_id, secret_ciphertext as ciphertext
                from webhook_subscription where secret_ciphertext is not null
                """)
            .query(StoredValue.class)
            .list();
    int resealed = 0;
    for (StoredValue value : values) {
      byte[] again = resealed(value, "webhook_signing_secret", unreadable);
      if (again != null) {
        resealed +=
            jdbc.sql(
                    """
                    update webhook_subscription set secret_ciphertext = :again
                    where id = :id and secret_ciphertext = :before
                    """)
                .param("again", again)
                .param("id", value.id())
                .param("before", value.ciphertext())
                .update();
      }
    }
    return resealed;
  }

  /** The value sealed with the current key; null when it already is, or no key opens it. */
  private byte[] resealed(StoredValue value, String kind, List<Unreadable> unreadable) {
    if (!cipher.needsReseal(value.ciphertext())) {
      return null;
    }
    try {
      return cipher.reseal(value.ciphertext());
    } catch (IllegalStateException e) {
      unreadable.add(new Unreadable(kind, value.tenantId(), String.valueOf(value.id())));
      return null;
    }
  }
}
