package com.crmflow.workflow.action;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * An http_request node's output: status, headers and body (parsed when it is JSON), and the span id
 * of the activity that made the call (the parent of the call's own span; null outside a trace),
 * which the node's log entry names.
 *
 * @param spanId left out of the JSON when null, so an answer without it has the size it had before
 *     answers carried it (the run's size decisions count answers)
 */
public record HttpResponseData(
    int statusCode,
    Map<String, String> headers,
    Object body,
    @JsonInclude(JsonInclude.Include.NON_NULL) String spanId) {

  public HttpResponseData(int statusCode, Map<String, String> headers, Object body) {
    this(statusCode, headers, body, null);
  }
}
