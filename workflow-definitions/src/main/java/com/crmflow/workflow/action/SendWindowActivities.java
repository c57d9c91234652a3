package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * The time zone of a send window set to the contact's zone. Hosted by api-server (queue crm, or
 * locally on the embedded defaults), which has the contact, the flow and the tenant.
 */
@ActivityInterface
public interface SendWindowActivities {

  /**
   * The contact's {@code timezone}, else the flow's (its settings at that canvas version), else the
   * tenant's default.
   *
   * @param contactId the run's contact, or null
   */
  @ActivityMethod(name = "window_zone")
  WindowZone zone(String tenantId, String sequenceId, int canvasVersion, String contactId);

  /**
   * A window's time zone and where it came from.
   *
   * @param zone an IANA zone
   * @param from {@code contact}, {@code flow} or {@code tenant}
   */
  record WindowZone(String zone, String from) {}
}
