package com.crmflow.workflow;

import java.util.List;

/** Names of the Temporal task queues, shared by every process that polls or starts work. */
public final class TaskQueues {

  /** Workflows: hosted by workflow-worker (and by api-server's in-process worker). */
  public static final String AUTOMATION = "automation";

  /**
   * The workflows of sequence enrollments' runs, hosted beside {@link #AUTOMATION} by a worker of
   * their own with few workflow task slots: thousands of enrolled runs whose delays end together
   * wait their turn in Temporal's matching (fairly between tenants) instead of crowding the
   * process's cores, and runs started by a trigger keep the {@link #AUTOMATION} worker to
   * themselves.
   */
  public static final String ENROLLMENTS = "enrollments";

  /** The queues whose workers host the workflows (and, locally, the activities they call). */
  public static final List<String> WORKFLOW_QUEUES = List.of(AUTOMATION, ENROLLMENTS);

  /** Outbound I/O activities (email, http_request, chat_message): hosted by workflow-worker. */
  public static final String INTEGRATIONS = "integrations";

  /** Activities that touch api-server's data (crm writes, run recording): hosted by api-server. */
  public static final String CRM = "crm";

  private TaskQueues() {}
}
