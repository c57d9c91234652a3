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

  /** Returns {@code {ok, channel, ts}} as the chat API answered. */
  @ActivityMethod(name = "chat_message")
  Map<String, Object> post(String tenantId, String channel, String text);
}
