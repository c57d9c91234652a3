package com.crmflow.api.idempotency;

import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The requests sent with an Idempotency-Key (table idempotent_request), per tenant; each key stored
 * with the id of the API key that sent it ({@code <api key id>/<key>}).
 */
@Repository
class IdempotentRequestRepository {

  /**
   * The key's row, as a request that did not claim it finds it.
   *
   * @param answer the first request's answer; null while it is still being handled
   */
  record Existing(String fingerprint, StoredAnswer answer) {}

  private final JdbcClient jdbc;

  IdempotentRequestRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Claims the key for this request: true when it was free, or held by a request that never
   * finished (its process stopped) for longer than {@code abandonedAfterSeconds}.
   */
  boolean claim(UUID tenantId, String key, String fingerprint, int abandonedAfterSeconds) {
    return jdbc.sql(
            """
                insert into idempotent_request (tenant_id, idempotency_key, fingerprint)
                values (:tenantId, :key, :fingerprint)
                on conflict (tenant_id, idempotency_key) do update
                    set fingerprint = excluded.fingerprint, created_at = now()
                    where idempotent_request.completed_at is null
                      and idempotent_request.created_at
                          < now() - make_interval(secs => :abandonedAfter)
                returning 1
                """)
        .param("tenantId", tenantId)
        .param("key", key)
        .param("fingerprint", fingerprint)
        .param("abandonedAfter", abandonedAfterSeconds)
        .query(Integer.class)
        .optional()
        .isPresent();
  }

  Optional<Existing> find(UUID tenantId, String key) {
    return jdbc.sql(
            """
            select fingerprint, status, content_type, response_body, completed_at
            from idempotent_request where tenant_id = :tenantId and idempotency_key = :key
            """)
        .param("tenantId", tenantId)
        .param("key", key)
        .query(
            (rs, row) ->
                new Existing(
                    rs.getString("fingerprint"),
                    rs.getObject("completed_at") == null
                        ? null
                        : new StoredAnswer(
                            rs.getInt("status"),
                            rs.getString("content_type"),
                            rs.getBytes("response_body"))))
        .optional();
  }

  void complete(UUID tenantId, String key, StoredAnswer answer) {
    jdbc.sql(
            """
            update idempotent_request
            set status = :status, content_type = :contentType, response_body = :body,
                completed_at = now()
            where tenant_id = :tenantId and idempotency_key = :key
            """)
        .param("status", answer.status())
        .param("contentType", answer.contentType())
        .param("body", answer.body())
        .param("tenantId", tenantId)
        .param("key", key)
        .update();
  }

  /** Frees the key: the request failed on the server's side, so the client may send it again. */
  void release(UUID tenantId, String key) {
    jdbc.sql(
            """
            delete from idempotent_request
            where tenant_id = :tenantId and idempotency_key = :key and completed_at is null
            """)
        .param("tenantId", tenantId)
        .param("key", key)
        .update();
  }
}
