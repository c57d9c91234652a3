package com.crmflow.api.recordfield;

import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Checks that the record ids a request links to (contact_id, opportunity_id, account_id) exist in
 * the caller's tenant; an id of another tenant is as unknown as a made-up one.
 */
@Component
public class RecordReferences {

  private static final Map<String, String> TABLE_BY_FIELD =
      Map.of("contact_id", "contact", "opportunity_id", "opportunity", "account_id", "account");

  private final JdbcClient jdbc;

  RecordReferences(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** 422 naming every link field whose record does not exist in the tenant. */
  public void requireExisting(UUID tenantId, Map<String, Object> fields) {
    List<FieldProblem> missing = new ArrayList<>();
    TABLE_BY_FIELD.forEach(
        (field, table) -> {
          if (fields.get(field) instanceof UUID id && !exists(tenantId, table, id)) {
            missing.add(new FieldProblem(field, "no " + table + " with id " + id));
          }
        });
    if (!missing.isEmpty()) {
      missing.sort(java.util.Comparator.comparing(FieldProblem::field));
      throw ApiException.unprocessable(
          "The request refers to records that do not exist in this tenant.", missing);
    }
  }

  private boolean exists(UUID tenantId, String table, UUID id) {
    // table comes from the fixed map above, never from the request
    return jdbc.sql(
            "select exists (select 1 from %s where tenant_id = :tenantId and id = :id)"
                .formatted(table))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Boolean.class)
        .single();
  }
}
