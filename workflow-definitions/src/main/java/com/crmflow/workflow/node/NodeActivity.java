package com.crmflow.workflow.node;

import java.util.Objects;

/**
 * An activity interface that a node type (or the engine) calls, and the task queue it calls it on.
 * Each process registers on its worker of that queue every bean it has that implements the
 * interface, and refuses to start when it polls the queue and has none; see {@link
 * NodeExecutor#activities}. Call it through {@link NodeActivities}.
 *
 * @param activities the activity interface ({@code @ActivityInterface})
 * @param taskQueue the queue its calls go to ({@code TaskQueues})
 * @param local whether a run with local activities ({@code RunInput#localActivities}) may call it
 *     as a local activity of the worker that runs the workflow ({@link NodeActivities#call}): a
 *     process whose runs do so registers it on its automation worker too
 * @param <T> the activity interface
 */
public record NodeActivity<T>(Class<T> activities, String taskQueue, boolean local) {

  public NodeActivity {
    Objects.requireNonNull(activities, "activities");
    Objects.requireNonNull(taskQueue, "taskQueue");
  }

  /** Activities called on {@code taskQueue} only. */
  public static <T> NodeActivity<T> on(String taskQueue, Class<T> activities) {
    return new NodeActivity<>(activities, taskQueue, false);
  }

  /** The same activities, which a run with local activities may also call locally. */
  public NodeActivity<T> orLocal() {
    return new NodeActivity<>(activities, taskQueue, true);
  }
}
