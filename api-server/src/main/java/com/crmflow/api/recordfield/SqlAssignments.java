package com.crmflow.api.recordfield;

import java.util.Collection;
import java.util.stream.Collectors;

/**
 * SQL fragments for a set of validated fields. The names always come from a {@link RecordSchema},
 * never from the client, so they are safe to splice into SQL; the values are bound as named
 * parameters of the same names.
 */
public final class SqlAssignments {

  private SqlAssignments() {}

  /** {@code a = :a, b = :b} */
  public static String set(Collection<String> columns) {
    return columns.stream().map(c -> c + " = :" + c).collect(Collectors.joining(", "));
  }

  /** {@code , a, b} (leading comma, or empty) for an insert's column list */
  public static String columns(Collection<String> columns) {
    return columns.stream().map(c -> ", " + c).collect(Collectors.joining());
  }

  /** {@code , :a, :b} (leading comma, or empty) for an insert's values list */
  public static String values(Collection<String> columns) {
    return columns.stream().map(c -> ", :" + c).collect(Collectors.joining());
  }

  /**
   * Inserts a record with custom fields: binds {@code :id}, {@code :tenantId}, {@code
   * :customFields} (JSON) and one parameter per field.
   */
  public static String insertWithCustomFields(
      String table, Collection<String> fields, String returning) {
    return insertWithCustomFields(table, fields, "", returning);
  }

  /** The same, with an {@code on conflict ...} clause. */
  public static String insertWithCustomFields(
      String table, Collection<String> fields, String onConflict, String returning) {
    return """
        insert into %s (id, tenant_id, custom_fields%s)
        values (:id, :tenantId, jsonb_strip_nulls(:customFields::jsonb)%s)
        %s
        returning %s
        """
        .formatted(table, columns(fields), values(fields), onConflict, returning);
  }

  /**
   * Updates the given fields of a record and merges {@code :customFields} into its custom fields (a
   * null value removes a key); binds {@code :tenantId} and {@code :id}.
   */
  public static String updateWithCustomFields(
      String table, Collection<String> fields, String returning) {
    String assignments = set(fields);
    return """
        update %s set %s
               custom_fields = jsonb_strip_nulls(custom_fields || :customFields::jsonb),
               updated_at = now()
        where tenant_id = :tenantId and id = :id
        returning %s
        """
        .formatted(table, assignments.isEmpty() ? "" : assignments + ",", returning);
  }
}
