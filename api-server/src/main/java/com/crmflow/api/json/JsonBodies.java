package com.crmflow.api.json;

import com.crmflow.api.web.ApiException;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Checks on request bodies taken as raw JSON (endpoints with partial updates). */
public final class JsonBodies {

  private JsonBodies() {}

  private static final String NUL =
      "must not contain the NUL character (U+0000), which cannot be stored";

  private static final String NOT_FINITE =
      "must be a number within the range of a double (about ±1.8e308)";

  /**
   * Refuses what a request body cannot be stored as sent: a NUL (U+0000) in any key or string
   * (PostgreSQL text and jsonb cannot hold it), and a number beyond a double's range ({@code
   * 1e400}: it would be stored as Infinity, which is not JSON, or overflow a numeric column).
   *
   * @throws ApiException 400 naming where it is ({@code custom_fields.notes}, {@code tags.2})
   */
  public static void refuseUnstorable(JsonNode body) {
    String[] problem = whereUnstorable(body, "");
    if (problem != null) {
      throw ApiException.badRequest(problem[0].isEmpty() ? "body" : problem[0], problem[1]);
    }
  }

  /**
   * As {@link #refuseUnstorable} for the numbers of a body already read into maps and lists (the
   * public trigger's payload): a number beyond a double's range reads as an infinite Double, or as
   * a BigInteger when it has no fraction.
   */
  public static void refuseNonFinite(Object value) {
    String where = whereNonFinite(value, "");
    if (where != null) {
      throw ApiException.badRequest(where.isEmpty() ? "body" : where, NOT_FINITE);
    }
  }

  private static String whereNonFinite(Object value, String path) {
    String prefix = path.isEmpty() ? "" : path + ".";
    if (value instanceof Number number) { // a Double, or a BigInteger of many digits
      return Double.isFinite(number.doubleValue()) ? null : path;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        String inside = whereNonFinite(entry.getValue(), prefix + entry.getKey());
        if (inside != null) {
          return inside;
        }
      }
    } else if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        String inside = whereNonFinite(list.get(i), prefix + i);
        if (inside != null) {
          return inside;
        }
      }
    }
    return null;
  }

  /** Where the first unstorable value is, and why; null when there is none. */
  private static String[] whereUnstorable(JsonNode node, String path) {
    if (node == null) {
      return null;
    }
    if (node.isString()) {
      return hasNul(node.asString()) ? new String[] {path, NUL} : null;
    }
    if (node.isNumber()) {
      // numberValue(): a BigInteger past a double's range reads as infinite, where doubleValue()
      // of its node throws
      return Double.isFinite(node.numberValue().doubleValue())
          ? null
          : new String[] {path, NOT_FINITE};
    }
    String prefix = path.isEmpty() ? "" : path + ".";
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> property : node.properties()) {
        String name = prefix + property.getKey();
        if (hasNul(property.getKey())) {
          return new String[] {name, NUL};
        }
        String[] inside = whereUnstorable(property.getValue(), name);
        if (inside != null) {
          return inside;
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String[] inside = whereUnstorable(node.get(i), prefix + i);
        if (inside != null) {
          return inside;
        }
      }
    }
    return null;
  }

  private static boolean hasNul(String text) {
    return text.indexOf(0) >= 0;
  }

  public static JsonNode requireObject(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("body", "must be a JSON object");
    }
    return body;
  }
}
