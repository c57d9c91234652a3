package com.crmflow.api.chat;

import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ChatIntegrationRepository {

  /** The stored integration with its encrypted token, for the activity that posts. */
  record Stored(String baseUrl, byte[] tokenCiphertext) {}

  private final JdbcClient jdbc;

  ChatIntegrationRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  ChatIntegration upsert(
      UUID tenantId, String provider, byte[] ciphertext, String hint, String baseUrl) {
    return jdbc.sql(
            """
            insert into chat_integration (tenant_id, provider, token_ciphertext, token_hint, base_url)
            values (:tenantId, :provider, :ciphertext, :hint, :baseUrl)
            on conflict (tenant_id) do update set
                provider = excluded.provider, token_ciphertext = excluded.token_ciphertext,
                token_hint = excluded.token_hint, base_url = excluded.base_url,
                connected_at = now()
            returning provider, token_hint, base_url, connected_at
            """)
        .param("tenantId", tenantId)
        .param("provider", provider)
        .param("ciphertext", ciphertext)
        .param("hint", hint)
        .param("baseUrl", baseUrl)
        .query(ChatIntegration.class)
        .single();
  }

  Optional<ChatIntegration> find(UUID tenantId) {
    return jdbc.sql(
            """
            select provider, token_hint, base_url, connected_at
            from chat_integration where tenant_id = :tenantId
            """)
        .param("tenantId", tenantId)
        .query(ChatIntegration.class)
        .optional();
  }

  Optional<Stored> findStored(UUID tenantId) {
    return jdbc.sql(
            "select base_url, token_ciphertext from chat_integration where tenant_id = :tenantId")
        .param("tenantId", tenantId)
        .query((rs, row) -> new Stored(rs.getString(1), rs.getBytes(2)))
        .optional();
  }

  boolean delete(UUID tenantId) {
    return jdbc.sql("delete from chat_integration where tenant_id = :tenantId")
            .param("tenantId", tenantId)
            .update()
        == 1;
  }
}
