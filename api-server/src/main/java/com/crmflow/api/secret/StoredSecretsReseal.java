package com.crmflow.api.secret;

import com.crmflow.api.web.ApiException;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeSecrets;
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
 * crm.secrets.previous-keys}); one that none of them opens, or that is damaged, is left as it is
 * and reported. Safe to run again, and while the service runs: each row is rewritten on its own,
 * only when its value is still the one read, and the stored values are gone over again (at most
 * {@link #MAX_PASSES} times) until a pass finds none left to re-seal, so that values written
 * meanwhile (a canvas saved as a copy of one sealed with the old key) are re-sealed too. What is
 * still left is answered as {@code remaining}.
 */
@Service
public class StoredSecretsReseal {

  /** How many times the stored values are gone over before the re-seal answers. */
  static final int MAX_PASSES = 5;

  private static final Logger log = LoggerFactory.getLogger(StoredSecretsReseal.class);

  private static final TypeReference<List<Map<String, Object>>> NODES = new TypeReference<>() {};

  private final JdbcClient jdbc;
  private final SecretCipher cipher;
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  /** The service's node types (api-server's {@code NodeTypes}): whose fields are secret. */
  private final NodeCatalog nodeTypes;

  StoredSecretsReseal(JdbcClient jdbc, SecretCipher cipher, NodeCatalog nodeTypes) {
    this.jdbc = jdbc;
    this.cipher = cipher;
    this.nodeTypes = nodeTypes;
  }

  /** A stored value none of the keys opens (or a damaged one): where it is. */
  public record Unreadable(String kind, UUID tenantId, String where) {}

  /**
   * What a re-seal did.
   *
   * @param keyId the id of the key every re-sealed value names
   * @param canvasNodeSecrets node secrets sealed again, over all canvas versions
   * @param chatIntegrationTokens chat bot tokens sealed again
   * @param webhookSigningSecrets webhook signing secrets sealed again
   * @param unreadable values that none of this process's keys opens, or that are damaged, left as
   *     they are
   * @param remaining values sealed with another key that this process opens but that are not
   *     re-sealed yet (written while the re-seal ran): 0 when every value this process can read
   *     names the current key; otherwise run the re-seal again
   */
  public record Result(
      String keyId,
      int canvasNodeSecrets,
      int chatIntegrationTokens,
      int webhookSigningSecrets,
      List<Unreadable> unreadable,
      int remaining) {}

  /** What one pass over the stored values found and did. */
  private static final class Pass {
    private final boolean write;
    private int canvas;
    private int chat;
    private int webhooks;

    /** Readable values of another key that this pass did not rewrite. */
    private int pending;

    private final List<Unreadable> unreadable = new ArrayList<>();

    private Pass(boolean write) {
      this.write = write;
    }

    private int resealed() {
      return canvas + chat + webhooks;
    }
  }

  /**
   * Re-seals every stored value that another key sealed.
   *
   * @throws ApiException 409 when this process has no key to seal with: nothing is changed
   */
  public Result resealAll() {
    if (cipher.currentKeyId() == null) {
      throw ApiException.conflict(
          "This api-server has no secrets key, so it cannot re-seal: set crm.secrets.key"
              + " (CRM_SECRETS_KEY) or crm.secrets.key-file (CRM_SECRETS_KEY_FILE) to the new key,"
              + " with the old one in crm.secrets.previous-keys, and restart it. Nothing was"
              + " changed.");
    }
    int canvas = 0;
    int chat = 0;
    int webhooks = 0;
    Pass last = null;
    int passes = 0;
    while (passes < MAX_PASSES) {
      last = pass(true);
      passes++;
      canvas += last.canvas;
      chat += last.chat;
      webhooks += last.webhooks;
      if (last.resealed() == 0 && last.pending == 0) {
        break;
      }
    }
    if (last.resealed() > 0 || last.pending > 0) {
      // every pass found something: count what is left without writing
      last = pass(false);
    }
    log.info(
        "Re-sealed with key {} in {} passes: {} canvas node secrets, {} chat integration tokens,"
            + " {} webhook signing secrets; {} values no key opens, {} left to re-seal",
        cipher.currentKeyId(),
        passes,
        canvas,
        chat,
        webhooks,
        last.unreadable.size(),
        last.pending);
    return new Result(
        cipher.currentKeyId(), canvas, chat, webhooks, List.copyOf(last.unreadable), last.pending);
  }

  private Pass pass(boolean write) {
    Pass pass = new Pass(write);
    canvasVersions(pass);
    chatTokens(pass);
    webhookSecrets(pass);
    return pass;
  }

  private record VersionKey(UUID tenantId, UUID sequenceId, int version) {}

  private void canvasVersions(Pass pass) {
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
              .optional()
              .orElse(null);
      if (text == null) {
        continue;
      }
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
                nodeTypes,
                String.valueOf(node.get("type")),
                before,
                (path, value) -> {
                  try {
                    if (!cipher.needsReseal(value)) {
                      return value;
                    }
                    String again = cipher.reseal(key.tenantId(), value);
                    count[0]++;
                    return again;
                  } catch (IllegalStateException e) {
                    // another key's, or damaged (not base64): reported, left as it is
                    pass.unreadable.add(
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
      if (!changed) {
        continue;
      }
      int updated =
          pass.write
              ? jdbc.sql(
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
                  .update()
              : 0;
      if (updated == 1) {
        pass.canvas += count[0];
      } else {
        pass.pending += count[0];
      }
    }
  }

  private record StoredValue(UUID id, UUID tenantId, byte[] ciphertext) {}

  private void chatTokens(Pass pass) {
    resealColumn(
        pass,
        "chat_integration_token",
        """
        select tenant_id as id, tenant_id, token_ciphertext as ciphertext
        from chat_integration
        """,
        """
        update chat_integration set token_ciphertext = :again
        where tenant_id = :id and token_ciphertext = :before
        """,
        () -> pass.chat++);
  }

  private void webhookSecrets(Pass pass) {
    resealColumn(
        pass,
        "webhook_signing_secret",
        """
        select id, tenant_id, secret_ciphertext as ciphertext
        from webhook_subscription where secret_ciphertext is not null
        """,
        """
        update webhook_subscription set secret_ciphertext = :again
        where id = :id and secret_ciphertext = :before
        """,
        () -> pass.webhooks++);
  }

  /**
   * Re-seals the values of one sealed column: {@code select} reads {@code id, tenant_id,
   * ciphertext}; {@code update} writes {@code :again} where {@code :id} still holds {@code :before}
   * (a value changed meanwhile is left for the next pass).
   */
  private void resealColumn(
      Pass pass, String kind, String select, String update, Runnable resealedOne) {
    for (StoredValue value : jdbc.sql(select).query(StoredValue.class).list()) {
      byte[] again = resealed(value, kind, pass);
      if (again == null) {
        continue;
      }
      int updated =
          pass.write
              ? jdbc.sql(update)
                  .param("again", again)
                  .param("id", value.id())
                  .param("before", value.ciphertext())
                  .update()
              : 0;
      if (updated == 1) {
        resealedOne.run();
      } else {
        pass.pending++;
      }
    }
  }

  /** The value sealed with the current key; null when it already is, or no key opens it. */
  private byte[] resealed(StoredValue value, String kind, Pass pass) {
    try {
      if (!cipher.needsReseal(value.ciphertext())) {
        return null;
      }
      return cipher.reseal(value.ciphertext());
    } catch (IllegalStateException e) {
      pass.unreadable.add(new Unreadable(kind, value.tenantId(), String.valueOf(value.id())));
      return null;
    }
  }
}
