package com.crmflow.workflow.run;

import java.util.Map;

/** An http_request node, its templates already resolved. */
public record HttpRequestCommand(
    String method,
    String url,
    Map<String, String> headers,
    String body,
    int timeoutSeconds,
    String idempotencyKey) {}
