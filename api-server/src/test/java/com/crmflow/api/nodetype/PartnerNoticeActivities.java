package com.crmflow.api.nodetype;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** {@link PartnerNoticeNode}'s own activity: it posts the notice to the partner. */
@ActivityInterface
public interface PartnerNoticeActivities {

  /**
   * A notice for the partner.
   *
   * @param apiKey the node's key as stored: sealed, opened only by the activity
   */
  record Notice(String tenantId, String runId, String url, String note, String apiKey) {}

  /** Posts the note with the key in {@code X-Api-Key}; answers the partner's status code. */
  @ActivityMethod(name = "PartnerNotice")
  int post(Notice notice);
}
