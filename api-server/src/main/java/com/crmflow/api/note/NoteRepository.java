package com.crmflow.api.note;

import com.crmflow.api.recordfield.SqlAssignments;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class NoteRepository {

  private static final String COLUMNS =
      "id, content, contact_id, opportunity_id, account_id, created_at";

  private final JdbcClient jdbc;

  NoteRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public Note insert(UUID tenantId, Map<String, Object> fields) {
    return jdbc.sql(
            """
            insert into note (id, tenant_id%s) values (:id, :tenantId%s)
            returning %s
            """
                .formatted(
                    SqlAssignments.columns(fields.keySet()),
                    SqlAssignments.values(fields.keySet()),
                    COLUMNS))
        .params(fields)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .query(Note.class)
        .single();
  }

  /** Newest first, optionally only the notes of one contact, opportunity or account. */
  List<Note> list(
      UUID tenantId, UUID contactId, UUID opportunityId, UUID accountId, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from note
            where tenant_id = :tenantId
              and (cast(:contactId as uuid) is null or contact_id = :contactId)
              and (cast(:opportunityId as uuid) is null or opportunity_id = :opportunityId)
              and (cast(:accountId as uuid) is null or account_id = :accountId)
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("contactId", contactId)
        .param("opportunityId", opportunityId)
        .param("accountId", accountId)
        .param("limit", limit)
        .param("offset", offset)
        .query(Note.class)
        .list();
  }
}
