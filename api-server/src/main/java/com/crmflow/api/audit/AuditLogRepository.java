package com.crmflow.api.audit;

import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class AuditLogRepository {

  private final JdbcClient jdbc;

  AuditLogRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * @param status null while the call is still being answered (a row written in the change's own
   *     transaction); see {@link #setStatus}
   * @return the row's id
   */
  long insert(
      UUID tenantId, UUID apiKeyId, String actor, String method, String path, Integer status) {
    return jdbc.sql(
            """
            insert into audit_log (tenant_id, api_key_id, actor, method, path, status)
            values (:tenantId, :apiKeyId, :actor, :method, :path, :status)
            returning id
            """)
        .param("tenantId", tenantId)
        .param("apiKeyId", apiKeyId)
        .param("actor", actor)
        .param("method", method)
        .param("path", path)
        .param("status", status)
        .query(Long.class)
        .single();
  }

  /** The call's status, once its answer is final (null: it did not succeed). */
  void setStatus(long id, Integer status) {
    jdbc.sql("update audit_log set status = :status where id = :id")
        .param("id", id)
        .param("status", status)
        .update();
  }

  /** Newest first; all tenants when tenantId is null. */
  List<AuditEntry> list(UUID tenantId, int limit, int offset) {
    return jdbc.sql(
            """
            select id, tenant_id, api_key_id, actor, method, path, status, created_at
            from audit_log
            where (cast(:tenantId as uuid) is null or tenant_id = :tenantId)
            order by id desc
            limit :limit offset :offset
            """)
        .param("tenantId", tenantId)
        .param("limit", limit)
        .param("offset", offset)
        .query(AuditEntry.class)
        .list();
  }

  long count(UUID tenantId) {
    return jdbc.sql(
            """
            select count(*) from audit_log
            where (cast(:tenantId as uuid) is null or tenant_id = :tenantId)
            """)
        .param("tenantId", tenantId)
        .query(Long.class)
        .single();
  }
}
