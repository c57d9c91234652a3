package com.crmflow.workflow.action;

import java.util.Map;

/**
 * A crm_update or create_record node, its field mappings already rendered. {@code recordId} is the
 * record to update (crm_update only).
 */
public record CrmWrite(
    String tenantId, String entityType, String recordId, Map<String, Object> fields) {}
