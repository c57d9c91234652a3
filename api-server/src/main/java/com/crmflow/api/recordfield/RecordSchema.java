package com.crmflow.api.recordfield;

import com.crmflow.api.web.FieldProblem;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The standard fields of one record type (contact, account, opportunity, ...), and the one
 * validation that the REST API and the automation activities both use. Field names double as column
 * names, so only names listed here ever reach SQL.
 */
public final class RecordSchema {

  /** Pragmatic address check: something@domain.tld, no spaces, within RFC 5321 length. */
  static final Pattern EMAIL =
      Pattern.compile(
          "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$");

  /** A year of four digits and its hyphen, at the start of a date or a timestamp. */
  private static final Pattern FOUR_DIGIT_YEAR = Pattern.compile("\\d{4}-");

  private final String recordType;
  private final Map<String, FieldSpec> fields = new LinkedHashMap<>();

  public RecordSchema(String recordType, List<FieldSpec> specs) {
    this.recordType = recordType;
    specs.forEach(spec -> fields.put(spec.name(), spec));
  }

  public String recordType() {
    return recordType;
  }

  /** The standard fields, in schema order. */
  public Collection<FieldSpec> fields() {
    return Collections.unmodifiableCollection(fields.values());
  }

  public Set<String> fieldNames() {
    return fields.keySet();
  }

  /**
   * Validates the standard fields of a request body.
   *
   * @param body the JSON object sent by the client
   * @param creating whether required fields must be present
   * @param otherKeys keys that are not standard fields but are allowed (custom_fields,
   *     create_account, ...); any other unknown key is a problem
   * @param problems collects every problem found, each naming its field
   * @return the present standard fields, converted (String, Boolean, LocalDate, OffsetDateTime,
   *     BigDecimal, java.util.UUID, String[]) and in schema order; explicit nulls are kept as null
   */
  public Map<String, Object> validate(
      JsonNode body, boolean creating, Set<String> otherKeys, List<FieldProblem> problems) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (String key : body.propertyNames()) {
      if (!fields.containsKey(key) && !otherKeys.contains(key)) {
        problems.add(new FieldProblem(key, "is not a field of " + recordType));
      }
    }
    for (FieldSpec spec : fields.values()) {
      JsonNode node = body.get(spec.name());
      if (node == null || node.isNull()) {
        if (creating && spec.requiredOnCreate()) {
          problems.add(new FieldProblem(spec.name(), "is required"));
        } else if (node != null) {
          if (!spec.nullable() || spec.kind() == FieldKind.BOOLEAN) {
            problems.add(new FieldProblem(spec.name(), "cannot be null"));
          } else if (spec.kind() == FieldKind.STRING_LIST) {
            values.put(spec.name(), new String[0]); // null clears the list: the column holds {}
          } else {
            values.put(spec.name(), null);
          }
        }
        continue;
      }
      int problemsBefore = problems.size();
      Object value = convert(spec, node, problems);
      if (problems.size() > problemsBefore) {
        continue;
      }
      if (value == null && (spec.requiredOnCreate() || !spec.nullable())) {
        problems.add(new FieldProblem(spec.name(), "must not be blank"));
      } else {
        values.put(spec.name(), value); // null: a blank string clears the field
      }
    }
    return values;
  }

  private static Object convert(FieldSpec spec, JsonNode given, List<FieldProblem> problems) {
    String name = spec.name();
    JsonNode node =
        switch (spec.kind()) {
          case DECIMAL -> TextValues.number(given);
          case BOOLEAN -> TextValues.bool(given);
          case STRING_LIST -> TextValues.array(given);
          default -> given;
        };
    switch (spec.kind()) {
      case BOOLEAN -> {
        if (!node.isBoolean()) {
          problems.add(new FieldProblem(name, "must be true or false"));
          return null;
        }
        return node.booleanValue();
      }
      case DECIMAL -> {
        if (!node.isNumber()) {
          problems.add(new FieldProblem(name, "must be a number"));
          return null;
        }
        BigDecimal number = node.decimalValue();
        if (spec.min() != null && number.compareTo(spec.min()) < 0
            || spec.max() != null && number.compareTo(spec.max()) > 0) {
          problems.add(
              new FieldProblem(name, "must be between " + spec.min() + " and " + spec.max()));
          return null;
        }
        return number;
      }
      case STRING_LIST -> {
        return stringList(spec, node, problems);
      }
      default -> {
        // every other kind arrives as a string
      }
    }
    if (!node.isString()) {
      problems.add(new FieldProblem(name, "must be a string"));
      return null;
    }
    String text = node.stringValue().trim();
    switch (spec.kind()) {
      case TEXT -> {
        if (text.length() > spec.maxLength()) {
          problems.add(
              new FieldProblem(name, "must be at most " + spec.maxLength() + " characters"));
          return null;
        }
        return text.isEmpty() ? null : text;
      }
      case EMAIL -> {
        if (text.length() > 254 || !EMAIL.matcher(text).matches()) {
          problems.add(new FieldProblem(name, "must be a valid email address"));
          return null;
        }
        return text.toLowerCase(java.util.Locale.ROOT);
      }
      case TIMEZONE -> {
        try {
          if (!text.contains("/") && !text.equals("UTC")) {
            throw new DateTimeException("not a region id");
          }
          return ZoneId.of(text).getId();
        } catch (DateTimeException e) {
          problems.add(new FieldProblem(name, "must be an IANA time zone such as Europe/Berlin"));
          return null;
        }
      }
      case DATE -> {
        try {
          return LocalDate.parse(fourDigitYear(text));
        } catch (DateTimeParseException e) {
          problems.add(new FieldProblem(name, "must be a date in the form YYYY-MM-DD"));
          return null;
        }
      }
      case TIMESTAMP -> {
        try {
          return OffsetDateTime.parse(fourDigitYear(text));
        } catch (DateTimeParseException e) {
          problems.add(
              new FieldProblem(name, "must be an ISO-8601 timestamp such as 2026-01-31T09:00:00Z"));
          return null;
        }
      }
      case ENUM -> {
        if (!spec.allowed().contains(text)) {
          problems.add(new FieldProblem(name, "must be one of " + spec.allowed()));
          return null;
        }
        return text;
      }
      case UUID -> {
        try {
          return java.util.UUID.fromString(text);
        } catch (IllegalArgumentException e) {
          problems.add(new FieldProblem(name, "must be a UUID"));
          return null;
        }
      }
      default -> throw new IllegalStateException("unhandled kind " + spec.kind());
    }
  }

  /** Returned as String[]: JDBC binds an array to a text[] column, a List would be expanded. */
  private static String[] stringList(FieldSpec spec, JsonNode node, List<FieldProblem> problems) {
    if (!node.isArray()) {
      problems.add(new FieldProblem(spec.name(), "must be an array of strings"));
      return null;
    }
    if (node.size() > spec.max().intValue()) {
      problems.add(new FieldProblem(spec.name(), "must have at most " + spec.max() + " items"));
      return null;
    }
    List<String> items = new java.util.ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isString()
          || item.stringValue().isBlank()
          || item.stringValue().length() > spec.maxLength()) {
        problems.add(
            new FieldProblem(
                spec.name(), "must hold strings of 1 to " + spec.maxLength() + " characters"));
        return null;
      }
      if (!items.contains(item.stringValue().trim())) {
        items.add(item.stringValue().trim());
      }
    }
    return items.toArray(String[]::new);
  }

  /** The same checks as a JSON body, for one value given as text (e.g. from an automation). */
  public static boolean isEmail(String text) {
    return text != null && text.length() <= 254 && EMAIL.matcher(text.trim()).matches();
  }

  /**
   * The text of a date or a timestamp, refused unless it begins with a year of four digits and a
   * hyphen: ISO-8601 also reads a signed year of up to nine digits ({@code +5874898-01-01}), past
   * what PostgreSQL stores.
   *
   * @throws DateTimeParseException when the text does not begin {@code YYYY-}
   */
  public static String fourDigitYear(String text) {
    if (!FOUR_DIGIT_YEAR.matcher(text).lookingAt()) {
      throw new DateTimeParseException("the year must be four digits", text, 0);
    }
    return text;
  }
}
