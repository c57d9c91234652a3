package com.crmflow.workflow.action;

/**
 * A run's node that waits for an event about one record: an entry of api-server's index from
 * records to the runs waiting on them.
 *
 * @param tenantId the run's tenant
 * @param runId the run
 * @param workflowId the run's workflow, which the events are signalled to
 * @param watcher the node that waits
 * @param recordType {@code contact} or {@code opportunity}
 * @param recordId the record's id
 * @param event the event it waits for ({@code contact.updated})
 * @param filterField a dot path into the event's data that must hold {@code filterValue}, or null
 * @param filterValue the value the field must hold, or null
 */
public record RecordWatch(
    String tenantId,
    String runId,
    String workflowId,
    String watcher,
    String recordType,
    String recordId,
    String event,
    String filterField,
    String filterValue) {}
