package com.crmflow.workflow.action;

import java.util.Map;

/**
 * A crm_update or create_record node, its field mappings already rendered. {@code recordId} is the
 * record to update (crm_update only). {@code runId} and {@code nodeId} name the node: a
 * create_record node creates its record once per run, however often it is run (null in writes
 * scheduled by runs started before they were added: those create a record each time).
 */
public record CrmWrite(
    String tenantId,
    String entityType,
    String recordId,
    Map<String, Object> fields,
    String runId,
    String nodeId) {}
