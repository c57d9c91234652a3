package com.crmflow.api.support;

import java.net.http.HttpHeaders;
import tools.jackson.databind.JsonNode;

/** A response as a test sees it: status, headers and the parsed JSON body. */
public record ApiResponse(int status, HttpHeaders headers, String rawBody, JsonNode json) {

  public String header(String name) {
    return headers.firstValue(name).orElse(null);
  }

  public String contentType() {
    return header("Content-Type");
  }

  public JsonNode at(String pointer) {
    return json.at(pointer);
  }

  public String text(String pointer) {
    JsonNode node = json.at(pointer);
    return node.isMissingNode() || node.isNull() ? null : node.asString();
  }

  @Override
  public String toString() {
    return status + " " + rawBody;
  }
}
