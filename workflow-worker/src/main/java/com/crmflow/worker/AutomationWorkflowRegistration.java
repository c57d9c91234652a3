package com.crmflow.worker;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.registration.WorkflowImplementations;
import io.temporal.spring.boot.autoconfigure.template.WorkersTemplate;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * Registers the workflows on this process's automation worker, if it has one (api-server in the
 * distributed profile has none), before the Temporal starter starts the workers. Used by the worker
 * application and by api-server's in-process worker; see {@link WorkflowImplementations}.
 */
@Component
public class AutomationWorkflowRegistration implements SmartInitializingSingleton {

  private final ObjectProvider<WorkersTemplate> workers;

  AutomationWorkflowRegistration(ObjectProvider<WorkersTemplate> workers) {
    this.workers = workers;
  }

  @Override
  public void afterSingletonsInstantiated() {
    workers.ifAvailable(
        template ->
            template.getWorkers().stream()
                .filter(worker -> TaskQueues.AUTOMATION.equals(worker.getTaskQueue()))
                .forEach(WorkflowImplementations::registerOn));
  }
}
