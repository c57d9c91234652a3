package com.crmflow.api.task;

import com.crmflow.api.recordfield.SqlAssignments;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class TaskRepository {

  private static final String COLUMNS =
      """
      id, title, description, due_date, status, contact_id, opportunity_id, account_id,
      completed_at, created_at, updated_at
      """;

  private final JdbcClient jdbc;

  TaskRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public Task insert(UUID tenantId, Map<String, Object> fields) {
    return jdbc.sql(
            """
            insert into task (id, tenant_id, completed_at%s)
            values (:id, :tenantId,
                    case when cast(:newStatus as text) = 'completed' then now() end%s)
            returning %s
            """
                .formatted(
                    SqlAssignments.columns(fields.keySet()),
                    SqlAssignments.values(fields.keySet()),
                    COLUMNS))
        .params(fields)
        .param("newStatus", fields.get("status"))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .query(Task.class)
        .single();
  }

  /** Updates the task; completed_at follows status (set on completion, cleared on reopening). */
  Optional<Task> update(UUID tenantId, UUID id, Map<String, Object> fields) {
    String assignments = SqlAssignments.set(fields.keySet());
    return jdbc.sql(
            """
            update task set %s
                   completed_at = case
                       when coalesce(cast(:newStatus as text), status) = 'completed'
                           then coalesce(completed_at, now())
                       else null end,
                   updated_at = now()
            where tenant_id = :tenantId and id = :id
            returning %s
            """
                .formatted(assignments.isEmpty() ? "" : assignments + ",", COLUMNS))
        .params(fields)
        .param("newStatus", fields.get("status"))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Task.class)
        .optional();
  }

  List<Task> list(UUID tenantId, String status, UUID contactId, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from task
            where tenant_id = :tenantId
              and (cast(:status as text) is null or status = :status)
              and (cast(:contactId as uuid) is null or contact_id = :contactId)
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("status", status)
        .param("contactId", contactId)
        .param("limit", limit)
        .param("offset", offset)
        .query(Task.class)
        .list();
  }
}
