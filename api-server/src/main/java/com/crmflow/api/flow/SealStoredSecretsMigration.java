package com.crmflow.api.flow;

import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.registration.NodeExecutors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.springframework.stereotype.Component;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Flyway migration 22: seals the node secrets that canvas versions written before sealing hold in
 * plain text, so that every stored secret is encrypted. A Java migration because it needs the
 * secrets key; Spring Boot hands {@link JavaMigration} beans to Flyway.
 */
@Component
class SealStoredSecretsMigration implements JavaMigration {

  private static final TypeReference<List<Map<String, Object>>> NODES = new TypeReference<>() {};

  private final SecretCipher cipher;
  private final JsonMapper json =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  SealStoredSecretsMigration(SecretCipher cipher) {
    this.cipher = cipher;
  }

  @Override
  public MigrationVersion getVersion() {
    return MigrationVersion.fromVersion("22");
  }

  @Override
  public String getDescription() {
    return "seal canvas secrets";
  }

  @Override
  public Integer getChecksum() {
    return null;
  }

  @Override
  public boolean canExecuteInTransaction() {
    return true;
  }

  @Override
  public void migrate(Context context) throws Exception {
    Connection connection = context.getConnection();
    try (PreparedStatement select =
            connection.prepareStatement(
                """
                select tenant_id, sequence_id, version, nodes::text from canvas_version
                where nodes::text like '%secretToken%' or nodes::text like '%"headers"%'
                """);
        PreparedStatement update =
            connection.prepareStatement(
                """
                update canvas_version set nodes = ?::jsonb
                where tenant_id = ? and sequence_id = ? and version = ?
                """);
        ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        UUID tenantId = rows.getObject(1, UUID.class);
        List<Map<String, Object>> nodes = json.readValue(rows.getString(4), NODES);
        if (sealAll(tenantId, nodes)) {
          update.setString(1, json.writeValueAsString(nodes));
          update.setObject(2, tenantId);
          update.setObject(3, rows.getObject(2, UUID.class));
          update.setInt(4, rows.getInt(3));
          update.executeUpdate();
        }
      }
    }
  }

  /** Seals the plain secrets of these stored nodes in place; true when one was. */
  @SuppressWarnings("unchecked")
  private boolean sealAll(UUID tenantId, List<Map<String, Object>> nodes) {
    boolean changed = false;
    for (Map<String, Object> node : nodes) {
      if (!(node.get("data") instanceof Map<?, ?> data)
          || !(data.get("config") instanceof Map<?, ?> config)) {
        continue;
      }
      Map<String, Object> before = (Map<String, Object>) config;
      Map<String, Object> after =
          NodeSecrets.rewrite(
              NodeExecutors.catalog(),
              String.valueOf(node.get("type")),
              before,
              (path, value) -> NodeSecrets.isSealed(value) ? value : cipher.seal(tenantId, value));
      if (!after.equals(before)) {
        Map<String, Object> newData = new LinkedHashMap<>((Map<String, Object>) data);
        newData.put("config", after);
        node.put("data", newData);
        changed = true;
      }
    }
    return changed;
  }
}
