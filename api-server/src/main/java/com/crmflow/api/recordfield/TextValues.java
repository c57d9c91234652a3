package com.crmflow.api.recordfield;

import java.math.BigDecimal;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Typed values that arrive as text. An automation's field mappings are templates, and every value a
 * template inserts is a string (the spec's rule 5): {@code "{{trigger.amount}}"} is "1200". Number,
 * boolean and list fields read such strings as a client's typed values ("1200" a number, "true" a
 * boolean, {@code ["a","b"]} written out a list), on every path, so a client may send them so too.
 * Anything else keeps its type and the field's own check refuses it.
 */
public final class TextValues {

  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private TextValues() {}

  /** A number, or a string that holds one ("1200", " -3.5 "), as a number; else as it is. */
  public static JsonNode number(JsonNode node) {
    if (node != null && node.isString()) {
      String text = node.stringValue().trim();
      if (DECIMAL.matcher(text).matches()) {
        BigDecimal value = new BigDecimal(text);
        if (Double.isFinite(value.doubleValue())) {
          return JsonNodeFactory.instance.numberNode(value);
        }
      }
    }
    return node;
  }

  /** A boolean, or the string "true" or "false", as a boolean; else as it is. */
  public static JsonNode bool(JsonNode node) {
    if (node != null && node.isString()) {
      String text = node.stringValue().trim();
      if (text.equals("true") || text.equals("false")) {
        return JsonNodeFactory.instance.booleanNode(Boolean.parseBoolean(text));
      }
    }
    return node;
  }

  /** An array, or a string that holds a JSON array (a list a template wrote out), as an array. */
  public static JsonNode array(JsonNode node) {
    if (node != null && node.isString() && node.stringValue().trim().startsWith("[")) {
      try {
        JsonNode parsed = JSON.readTree(node.stringValue());
        if (parsed.isArray()) {
          return parsed;
        }
      } catch (JacksonException notJson) {
        // the field's own check refuses the string
      }
    }
    return node;
  }
}
