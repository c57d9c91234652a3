package com.crmflow.api.emailtemplate;

import com.crmflow.api.recordfield.FieldSpec;
import com.crmflow.api.recordfield.RecordSchema;
import com.crmflow.api.recordfield.SqlAssignments;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class EmailTemplateRepository {

  private static final int MAX_BODY = 100_000;

  public static final RecordSchema SCHEMA =
      new RecordSchema(
          "email template",
          List.of(
              FieldSpec.text("name").required(),
              FieldSpec.text("subject", 998).required(),
              FieldSpec.text("html_body", MAX_BODY),
              FieldSpec.text("text_body", MAX_BODY)));

  private static final String COLUMNS =
      "id, name, subject, html_body, text_body, created_at, updated_at";

  private final JdbcClient jdbc;

  EmailTemplateRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  EmailTemplate insert(UUID tenantId, Map<String, Object> fields) {
    return jdbc.sql(
            "insert into email_template (id, tenant_id%s) values (:id, :tenantId%s) returning %s"
                .formatted(
                    SqlAssignments.columns(fields.keySet()),
                    SqlAssignments.values(fields.keySet()),
                    COLUMNS))
        .params(fields)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .query(EmailTemplate.class)
        .single();
  }

  public Optional<EmailTemplate> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from email_template where tenant_id = :tenantId and id = :id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(EmailTemplate.class)
        .optional();
  }

  Optional<EmailTemplate> update(UUID tenantId, UUID id, Map<String, Object> fields) {
    String assignments = SqlAssignments.set(fields.keySet());
    return jdbc.sql(
            """
            update email_template set %s updated_at = now()
            where tenant_id = :tenantId and id = :id returning %s
            """
                .formatted(assignments.isEmpty() ? "" : assignments + ",", COLUMNS))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(EmailTemplate.class)
        .optional();
  }

  boolean delete(UUID tenantId, UUID id) {
    return jdbc.sql("delete from email_template where tenant_id = :tenantId and id = :id")
            .param("tenantId", tenantId)
            .param("id", id)
            .update()
        == 1;
  }

  List<EmailTemplate> list(UUID tenantId, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from email_template where tenant_id = :tenantId
            order by created_at desc, id desc limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("limit", limit)
        .param("offset", offset)
        .query(EmailTemplate.class)
        .list();
  }
}
