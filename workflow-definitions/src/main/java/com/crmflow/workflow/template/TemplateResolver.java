package com.crmflow.workflow.template;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * The one resolver of {@code {{source.path}}} variables, used by every node type (the spec's six
 * rules): {@code trigger} is the trigger payload, {@code contact} the run's contact, {@code
 * <type>_<n>} the output of the n-th node of that type executed so far; dot paths reach nested
 * fields (and list indexes); a missing value is an empty string; every value is coerced to a string
 * (objects and arrays as JSON, whole numbers without a decimal point).
 *
 * <p>Deterministic and free of I/O, so workflow code may call it.
 */
public final class TemplateResolver {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TemplateResolver() {}

  /** Plain text: values are inserted as they are. */
  public static String render(String template, Map<String, Object> scope) {
    return render(template, scope, false);
  }

  /**
   * @param jsonEscape for JSON body templates: each inserted value is escaped as the inside of a
   *     JSON string (quotes, backslashes, control characters), so {@code "{{trigger.name}}"} stays
   *     valid JSON whatever the name holds
   */
  public static String render(String template, Map<String, Object> scope, boolean jsonEscape) {
    if (template == null || template.indexOf("{{") < 0) {
      return template;
    }
    Matcher m = TemplateReference.VARIABLE.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String path = m.group(1) + m.group(2);
      String value = asString(lookup(scope, path));
      m.appendReplacement(out, Matcher.quoteReplacement(jsonEscape ? escapeJson(value) : value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Renders a structured value (field mappings): strings are rendered, maps and lists element by
   * element. Every inserted value is a string, as rule 5 says, also where a string is exactly one
   * variable: {@code "{{trigger.amount}}"} is "1200", and a number field reads it as a number (a
   * missing variable is "").
   */
  public static Object renderValue(Object value, Map<String, Object> scope) {
    if (value instanceof String s) {
      return render(s, scope);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), renderValue(v, scope)));
      return out;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(v -> renderValue(v, scope)).toList();
    }
    return value;
  }

  /** The raw value at a dot path such as {@code http_request_1.body.items}, or null. */
  public static Object lookup(Map<String, Object> scope, String path) {
    Object current = scope;
    for (String part : parts(path)) {
      if (current instanceof Map<?, ?> map) {
        current = map.get(part);
      } else if (current instanceof List<?> list && part.matches("\\d+")) {
        int index = Integer.parseInt(part);
        current = index < list.size() ? list.get(index) : null;
      } else {
        return null;
      }
      if (current == null) {
        return null;
      }
    }
    return current;
  }

  /**
   * The variable a {@link #lookup} path reads: its first name ({@code http_request_1} of {@code
   * http_request_1.body.items}, {@code contact} of {@code " contact "}).
   */
  public static String sourceOf(String path) {
    return parts(path)[0];
  }

  private static String[] parts(String path) {
    return path.trim().split("\\.");
  }

  /** Rule 5: every value becomes a string; missing ones the empty string (rule 4). */
  public static String asString(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      BigDecimal number = new BigDecimal(value.toString()).stripTrailingZeros();
      return number.scale() <= 0 ? number.toBigInteger().toString() : number.toPlainString();
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  static String escapeJson(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
