package com.crmflow.api.recordfield;

import java.math.BigDecimal;
import java.util.List;

/**
 * One standard field of a record type: its JSON name (also its column name), kind and limits.
 *
 * @param requiredOnCreate must be present and non-null when the record is created
 * @param maxLength for TEXT: the longest accepted string
 * @param min for DECIMAL: the smallest accepted value (null: unbounded)
 * @param max for DECIMAL: the largest accepted value (null: unbounded)
 * @param allowed for ENUM: the accepted values
 * @param nullable whether an explicit null may clear the field
 */
public record FieldSpec(
    String name,
    FieldKind kind,
    boolean requiredOnCreate,
    int maxLength,
    BigDecimal min,
    BigDecimal max,
    List<String> allowed,
    boolean nullable) {

  public static final int SHORT_TEXT = 255;
  public static final int LONG_TEXT = 10_000;

  public static FieldSpec text(String name) {
    return new FieldSpec(name, FieldKind.TEXT, false, SHORT_TEXT, null, null, List.of(), true);
  }

  public static FieldSpec longText(String name) {
    return new FieldSpec(name, FieldKind.TEXT, false, LONG_TEXT, null, null, List.of(), true);
  }

  public static FieldSpec text(String name, int maxLength) {
    return new FieldSpec(name, FieldKind.TEXT, false, maxLength, null, null, List.of(), true);
  }

  public static FieldSpec of(String name, FieldKind kind) {
    return new FieldSpec(name, kind, false, SHORT_TEXT, null, null, List.of(), true);
  }

  public static FieldSpec decimal(String name, String min, String max) {
    return new FieldSpec(
        name,
        FieldKind.DECIMAL,
        false,
        0,
        min == null ? null : new BigDecimal(min),
        max == null ? null : new BigDecimal(max),
        List.of(),
        true);
  }

  public static FieldSpec oneOf(String name, List<String> allowed) {
    return new FieldSpec(
        name, FieldKind.ENUM, false, SHORT_TEXT, null, null, List.copyOf(allowed), true);
  }

  /** An array of at most {@code maxItems} strings of up to {@code maxLength} characters. */
  public static FieldSpec stringList(String name, int maxItems, int maxLength) {
    return new FieldSpec(
        name,
        FieldKind.STRING_LIST,
        false,
        maxLength,
        null,
        BigDecimal.valueOf(maxItems),
        List.of(),
        true);
  }

  /** Must be given on create, and can never be null. */
  public FieldSpec required() {
    return new FieldSpec(name, kind, true, maxLength, min, max, allowed, false);
  }

  /** May be left out (a default applies), but never set to null. */
  public FieldSpec notNull() {
    return new FieldSpec(name, kind, requiredOnCreate, maxLength, min, max, allowed, false);
  }
}
