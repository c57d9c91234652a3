package com.crmflow.api.customfield;

import com.crmflow.api.json.JsonColumns;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class CustomFieldRepository {

  private static final String COLUMNS =
      """
      id, object_type, field_key, field_label, field_type, options, is_required, section,
      description, created_at
      """;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<CustomField> mapper;

  CustomFieldRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.mapper =
        (rs, row) ->
            new CustomField(
                rs.getObject("id", UUID.class),
                rs.getString("object_type"),
                rs.getString("field_key"),
                rs.getString("field_label"),
                rs.getString("field_type"),
                options(json.readList(rs.getString("options"))),
                rs.getBoolean("is_required"),
                rs.getString("section"),
                rs.getString("description"),
                rs.getObject("created_at", OffsetDateTime.class));
    this.json = json;
  }

  private static List<String> options(List<Object> stored) {
    return stored == null ? null : stored.stream().map(String::valueOf).toList();
  }

  public List<CustomField> list(UUID tenantId, String objectType) {
    return jdbc.sql(
            """
            select %s from custom_field
            where tenant_id = :tenantId
              and (cast(:objectType as text) is null or object_type = :objectType)
            order by object_type, created_at, id
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("objectType", objectType)
        .query(mapper)
        .list();
  }

  /**
   * Serialises definition changes of one (tenant, object type) for the rest of the transaction, so
   * that the 50-field limit and key generation hold under concurrent creates.
   */
  void lockObjectType(UUID tenantId, String objectType) {
    jdbc.sql("select pg_advisory_xact_lock(hashtext(:key))")
        .param("key", "custom_field:" + tenantId + ":" + objectType)
        .query((rs, row) -> 1)
        .single();
  }

  int count(UUID tenantId, String objectType) {
    return jdbc.sql(
            "select count(*) from custom_field where tenant_id = :tenantId and object_type = :type")
        .param("tenantId", tenantId)
        .param("type", objectType)
        .query(Integer.class)
        .single();
  }

  boolean keyExists(UUID tenantId, String objectType, String fieldKey) {
    return jdbc.sql(
            """
            select exists (select 1 from custom_field
                           where tenant_id = :tenantId and object_type = :type and field_key = :key)
            """)
        .param("tenantId", tenantId)
        .param("type", objectType)
        .param("key", fieldKey)
        .query(Boolean.class)
        .single();
  }

  CustomField insert(UUID tenantId, NewCustomField field) {
    return jdbc.sql(
            """
            insert into custom_field (id, tenant_id, object_type, field_key, field_label,
                                      field_type, options, is_required, section, description)
            values (:id, :tenantId, :objectType, :fieldKey, :fieldLabel, :fieldType,
                    :options::jsonb, :isRequired, :section, :description)
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("objectType", field.objectType())
        .param("fieldKey", field.fieldKey())
        .param("fieldLabel", field.fieldLabel())
        .param("fieldType", field.fieldType())
        .param("options", json.write(field.options()))
        .param("isRequired", field.isRequired())
        .param("section", field.section())
        .param("description", field.description())
        .query(mapper)
        .single();
  }

  /** A validated definition, ready to store. */
  record NewCustomField(
      String objectType,
      String fieldKey,
      String fieldLabel,
      String fieldType,
      List<String> options,
      boolean isRequired,
      String section,
      String description) {}
}
