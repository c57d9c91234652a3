package com.crmflow.worker;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeExecutors;
import com.crmflow.workflow.registration.WorkflowImplementations;
import io.temporal.spring.boot.autoconfigure.template.WorkersTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Registers the workflows on this process's automation worker, if it has one (api-server in the
 * distributed profile has none), before the Temporal starter starts the workers. Used by the worker
 * application and by api-server's in-process worker; see {@link WorkflowImplementations}.
 *
 * <p>Its runs run the built-in node types and every {@link NodeExecutor} bean of the process, as
 * api-server's API accepts them ({@link NodeExecutors#with}). The catalog is made once, here,
 * before the worker polls: every run of the worker's life sees the same types.
 */
@Component
public class AutomationWorkflowRegistration implements SmartInitializingSingleton {

  private final ObjectProvider<WorkersTemplate> workers;
  private final ObjectProvider<NodeExecutor> executors;

  AutomationWorkflowRegistration(
      ObjectProvider<WorkersTemplate> workers, ObjectProvider<NodeExecutor> executors) {
    this.workers = workers;
    this.executors = executors;
  }

  @Override
  public void afterSingletonsInstantiated() {
    workers.ifAvailable(
        template -> {
          NodeCatalog catalog = catalog();
          template.getWorkers().stream()
              .filter(worker -> TaskQueues.AUTOMATION.equals(worker.getTaskQueue()))
              .forEach(worker -> WorkflowImplementations.registerOn(worker, catalog));
        });
  }

  /** The node types this process's runs run: the built-in ones and its executor beans. */
  private NodeCatalog catalog() {
    return NodeExecutors.with(executors.orderedStream().toList());
  }
}
