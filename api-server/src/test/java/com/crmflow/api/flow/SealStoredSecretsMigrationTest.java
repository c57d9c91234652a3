package com.crmflow.api.flow;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.node.NodeSecrets;
import java.sql.Connection;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.migration.Context;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Canvas versions that hold secrets in plain text are sealed by migration 22. */
class SealStoredSecretsMigrationTest extends ApiTest {

  @Autowired private SealStoredSecretsMigration migration;
  @Autowired private DataSource dataSource;
  @Autowired private SecretCipher cipher;

  @Test
  void plainSecretsAreSealedAndKeepWorking() throws Exception {
    var tenant = newTenant();
    String hook = SequenceSupport.uniqueId("hook");
    String token = "plain-" + UUID.randomUUID();
    String seq =
        SequenceSupport.activeAutomation(
            tenant.api(), chain(hook, node("wait", "delay", Map.of("delayDays", 1))));
    UUID sequenceId = UUID.fromString(seq);
    // a version as one written before secrets were sealed: the token in plain text
    jdbc.sql(
            """
            insert into canvas_version (tenant_id, sequence_id, version, nodes, edges)
            select tenant_id, sequence_id, 2,
                   jsonb_set(nodes, '{0,data,config,secretToken}', to_jsonb(:token::text)), edges
            from canvas_version where sequence_id = :seq and version = 1
            """)
        .param("token", token)
        .param("seq", sequenceId)
        .update();
    jdbc.sql("update sequence set current_version = 2 where id = :seq")
        .param("seq", sequenceId)
        .update();

    try (Connection connection = dataSource.getConnection()) {
      migration.migrate(
          new Context() {
            @Override
            public Configuration getConfiguration() {
              return null;
            }

            @Override
            public Connection getConnection() {
              return connection;
            }
          });
    }

    String stored =
        jdbc.sql(
                """
                select nodes -> 0 -> 'data' -> 'config' ->> 'secretToken' from canvas_version
                where sequence_id = :seq and version = 2
                """)
            .param("seq", sequenceId)
            .query(String.class)
            .single();
    assertThat(stored).startsWith(NodeSecrets.SEALED_PREFIX).doesNotContain(token);
    // sealed with the current key, whose id it names
    byte[] sealed = Base64.getDecoder().decode(NodeSecrets.cipherText(stored));
    assertThat(HexFormat.of().formatHex(sealed, 3, 11)).isEqualTo(cipher.currentKeyId());
    assertThat(cipher.needsReseal(stored)).isFalse();
    assertThat(cipher.unseal(tenant.id(), stored)).isEqualTo(token);
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + seq + "/canvas")
                .text("/canvas/nodes/0/data/config/secretToken"))
        .isEqualTo(NodeSecrets.MASK);
    String trigger = "/api/webhooks/automation/" + tenant.id() + "/" + hook;
    assertThat(anonymous().post(trigger, Map.of()).status()).isEqualTo(401);
    ApiResponse accepted =
        anonymous().withHeader("X-Webhook-Secret", token).post(trigger, Map.of());
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(200);
  }
}
