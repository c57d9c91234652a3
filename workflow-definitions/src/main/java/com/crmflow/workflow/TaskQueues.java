package com.crmflow.workflow;

/** Names of the Temporal task queues, shared by every process that polls or starts work. */
public final class TaskQueues {

  /** Workflows: hosted by workflow-worker (and by api-server's in-process worker). */
  public static final String AUTOMATION = "automation";

  /** Outbound I/O activities (email, http_request, chat_message): hosted by workflow-worker. */
  public static final String INTEGRATIONS = "integrations";

  /** Activities that touch api-server's data (crm writes, run recording): hosted by api-server. */
  public static final String CRM = "crm";

  private TaskQueues() {}
}
