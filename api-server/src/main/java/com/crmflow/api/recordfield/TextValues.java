package com.crmflow.api.recordfield;

import java.math.BigDecimal;
import java.math.RoundingMode;
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

  /** The most digits a number keeps after its point. */
  static final int MAX_DECIMALS = 1000;

  private TextValues() {}

  /** A number, or a string that holds one ("1200", " -3.5 "), as a number; else as it is. */
  public static JsonNode number(JsonNode node) {
    if (node != null && node.isString()) {
      String text = node.stringValue().trim();
      if (DECIMAL.matcher(text).matches()) {
        try {
          BigDecimal value = new BigDecimal(text);
          if (Double.isFinite(value.doubleValue())) {
            return JsonNodeFactory.instance.numberNode(storable(value));
          }
        } catch (NumberFormatException exponentPastAnInt) {
          // "1e-3000000000": left as text, which the field's check refuses
        }
      }
    }
    return node;
  }

  /**
   * The number with at most {@link #MAX_DECIMALS} digits after the point, rounded half-even:
   * PostgreSQL's numeric holds 16,383, and "1e-20000" has 20,000. A number whose first digit lies
   * past them is 0 at once, so that the rounding's work is bounded by the digits the text has, not
   * by its exponent ("1e-100000000").
   */
  private static BigDecimal storable(BigDecimal value) {
    if (value.scale() <= MAX_DECIMALS) {
      return value;
    }
    if (value.precision() - value.scale() < -MAX_DECIMALS) {
      return BigDecimal.ZERO;
    }
    BigDecimal rounded = value.setScale(MAX_DECIMALS, RoundingMode.HALF_EVEN).stripTrailingZeros();
    return rounded.signum() == 0 ? BigDecimal.ZERO : rounded;
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
