package com.crmflow.workflow.action;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;
import java.util.Map;

/**
 * Posts chat messages through the tenant's connected chat integration (Slack Web API shape). Hosted
 * by api-server (task queue crm): the bot token stays in the database of the service that owns it
 * and never travels through workflow history.
 */
@ActivityInterface
public interface ChatActivities {

  /** No chat integration connected, or the chat API refused the message for good: not retried. */
  String REJECTED = "Rejected";

  /**
   * The chat API may have posted the message, but no answer said so: not retried, so that it can
   * never be posted twice. Retrying the run from the node posts it again, on purpose.
   */
  String OUTCOME_UNKNOWN = "ChatOutcomeUnknown";

  /**
   * Returns {@code {ok, channel, ts}} as the chat API answered. Posts once per (run, node): the
   * node run again answers with the first post's output ({@code runId} and {@code nodeId} are null
   * in tasks scheduled by runs started before they were added: those post each time).
   */
  @ActivityMethod(name = "chat_message")
  Map<String, Object> post(
      String tenantId, String channel, String text, String runId, String nodeId);
}
