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
}
