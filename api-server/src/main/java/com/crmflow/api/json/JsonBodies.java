package com.crmflow.api.json;

import com.crmflow.api.web.ApiException;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Checks on request bodies taken as raw JSON (endpoints with partial updates). */
public final class JsonBodies {

  private JsonBodies() {}

  /**
   * Refuses a NUL (U+0000) in any key or string of a request body: PostgreSQL text and jsonb cannot
   * hold it, so it could not be stored as sent.
   *
   * @throws ApiException 400 naming where it is ({@code custom_fields.notes}, {@code tags.2})
   */
  public static void refuseNul(JsonNode body) {
    String where = whereNul(body, "");
    if (where != null) {
      throw ApiException.badRequest(
          where.isEmpty() ? "body" : where,
          "must not contain the NUL character (U+0000), which cannot be stored");
    }
  }

  private static String whereNul(JsonNode node, String path) {
    if (node == null) {
      return null;
    }
    if (node.isString()) {
      return hasNul(node.asString()) ? path : null;
    }
    String prefix = path.isEmpty() ? "" : path + ".";
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> property : node.properties()) {
        String name = prefix + property.getKey();
        if (hasNul(property.getKey())) {
          return name;
        }
        String inside = whereNul(property.getValue(), name);
        if (inside != null) {
          return inside;
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        String inside = whereNul(node.get(i), prefix + i);
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
