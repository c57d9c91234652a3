package com.crmflow.api.audit;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class SecurityEventRepository {

  /**
   * One refused call, or several: {@code repeats} counts the refusals of its source that came after
   * it in its minute beyond the cap ({@link SecurityEventLog}), itself included.
   */
  record SecurityEvent(
      long id,
      UUID tenantId,
      UUID apiKeyId,
      String actor,
      String method,
      String path,
      int status,
      String reason,
      String remoteAddress,
      int repeats,
      OffsetDateTime createdAt) {}

  private final JdbcClient jdbc;

  SecurityEventRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The new row's id. */
  long insert(
      UUID tenantId,
      UUID apiKeyId,
      String actor,
      String method,
      String path,
      int status,
      String reason,
      String remoteAddress) {
    return jdbc.sql(
            """
            insert into security_event (tenant_id, api_key_id, actor, method, path, status, reason,
                                        remote_address)
            values (:tenantId, :apiKeyId, :actor, :method, :path, :status, :reason, :remoteAddress)
            returning id
            """)
        .param("tenantId", tenantId)
        .param("apiKeyId", apiKeyId)
        .param("actor", actor)
        .param("method", method)
        .param("path", path)
        .param("status", status)
        .param("reason", reason)
        .param("remoteAddress", remoteAddress)
        .query(Long.class)
        .single();
  }

  /** Adds refusals folded into a row; a row deleted meanwhile takes none. */
  void addRepeats(long id, int count) {
    jdbc.sql("update security_event set repeats = repeats + :count where id = :id")
        .param("id", id)
        .param("count", count)
        .update();
  }

  /** Newest first; all tenants (and the calls of no known tenant) when tenantId is null. */
  List<SecurityEvent> list(UUID tenantId, int limit, int offset) {
    return jdbc.sql(
            """
            select id, tenant_id, api_key_id, actor, method, path, status, reason, remote_address,
                   repeats, created_at
            from security_event
            where (cast(:tenantId as uuid) is null or tenant_id = :tenantId)
            order by id desc
            limit :limit offset :offset
            """)
        .param("tenantId", tenantId)
        .param("limit", limit)
        .param("offset", offset)
        .query(SecurityEvent.class)
        .list();
  }

  long count(UUID tenantId) {
    return jdbc.sql(
            """
            select count(*) from security_event
            where (cast(:tenantId as uuid) is null or tenant_id = :tenantId)
            """)
        .param("tenantId", tenantId)
        .query(Long.class)
        .single();
  }
}
