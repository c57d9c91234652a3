package com.crmflow.workflow.action;

import java.util.Map;

/**
 * An http_request node, its templates already resolved. A sealed header value ({@link
 * com.crmflow.workflow.node.NodeSecrets}) stays sealed: the activity unseals it with the tenant's
 * key and fills in its variables from {@code sealedVariables}.
 *
 * @param tenantId the run's tenant, whose sealed values these are
 * @param sealedVariables each variable of a sealed header (as written, e.g. {@code
 *     {{trigger.token}}}) and its resolved value
 */
public record HttpRequestCommand(
    String method,
    String url,
    Map<String, String> headers,
    String body,
    int timeoutSeconds,
    String idempotencyKey,
    String tenantId,
    Map<String, String> sealedVariables) {}
