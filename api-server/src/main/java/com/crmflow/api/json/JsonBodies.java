package com.crmflow.api.json;

import com.crmflow.api.web.ApiException;
import tools.jackson.databind.JsonNode;

/** Checks on request bodies taken as raw JSON (endpoints with partial updates). */
public final class JsonBodies {

  private JsonBodies() {}

  public static JsonNode requireObject(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("body", "must be a JSON object");
    }
    return body;
  }
}
