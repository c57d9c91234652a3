package com.crmflow.api.outboundemail;

import com.crmflow.workflow.action.EmailMessage;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class OutboundEmailRepository {

  private static final String COLUMNS =
      """
      id, run_id, node_id, message_id, to_address, subject, text_body, html_body, status,
      created_at
      """;

  private final JdbcClient jdbc;

  OutboundEmailRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** Once per (run, node): a retried booking changes nothing. */
  void insertOnce(UUID tenantId, UUID runId, String nodeId, EmailMessage message, String status) {
    jdbc.sql(
            """
            insert into outbound_email (id, tenant_id, run_id, node_id, message_id, to_address,
                                        subject, text_body, html_body, status)
            values (:id, :tenantId, :runId, :nodeId, :messageId, :to, :subject, :text, :html,
                    :status)
            on conflict (run_id, node_id) do nothing
            """)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("runId", runId)
        .param("nodeId", nodeId)
        .param("messageId", message.messageId())
        .param("to", message.to())
        .param("subject", message.subject())
        .param("text", message.textBody())
        .param("html", message.htmlBody())
        .param("status", status)
        .update();
  }

  List<OutboundEmail> list(UUID tenantId, UUID runId, String status, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from outbound_email
            where tenant_id = :tenantId
              and (cast(:runId as uuid) is null or run_id = :runId)
              and (cast(:status as text) is null or status = :status)
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("runId", runId)
        .param("status", status)
        .param("limit", limit)
        .param("offset", offset)
        .query(OutboundEmail.class)
        .list();
  }

  long count(UUID tenantId, UUID runId, String status) {
    return jdbc.sql(
            """
            select count(*) from outbound_email
            where tenant_id = :tenantId
              and (cast(:runId as uuid) is null or run_id = :runId)
              and (cast(:status as text) is null or status = :status)
            """)
        .param("tenantId", tenantId)
        .param("runId", runId)
        .param("status", status)
        .query(Long.class)
        .single();
  }
}
