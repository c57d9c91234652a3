package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.Map;

/**
 * Writes CRM records for crm_update and create_record nodes, with the REST API's validation and
 * events. Hosted by api-server (task queue crm), which owns the records.
 */
@ActivityInterface
public interface CrmRecordActivities {

  /** The write was refused (invalid field, unknown record): not retried. */
  String REJECTED = "Rejected";

  /** Returns {@code {entity_type, id, record}}. */
  @ActivityMethod(name = "crm_update")
  Map<String, Object> update(CrmWrite write);

  /** Returns {@code {entity_type, id, record}}. */
  @ActivityMethod(name = "create_record")
  Map<String, Object> create(CrmWrite write);
}
