package com.crmflow.workflow.action;

import java.util.Map;

/** An http_request node's output: status, headers and body (parsed when it is JSON). */
public record HttpResponseData(int statusCode, Map<String, String> headers, Object body) {}
