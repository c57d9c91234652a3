package com.crmflow.workflow.registration;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflowImpl;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflow;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflowImpl;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflowImpl;
import io.temporal.worker.Worker;

/**
 * The product's workflows, for a worker of the {@link TaskQueues#AUTOMATION} queue. Each execution
 * gets a new instance from a plain constructor: the workflows need nothing injected, and the
 * Temporal starter's own registration (a Spring bean created per execution) cost about 1.5% of the
 * CPU of a short run.
 */
public final class WorkflowImplementations {

  private WorkflowImplementations() {}

  public static void registerOn(Worker worker) {
    worker.registerWorkflowImplementationFactory(
        AutomationRunWorkflow.class, AutomationRunWorkflowImpl::new);
    worker.registerWorkflowImplementationFactory(
        EnrollmentWorkflow.class, EnrollmentWorkflowImpl::new);
    worker.registerWorkflowImplementationFactory(
        ScheduleTriggerWorkflow.class, ScheduleTriggerWorkflowImpl::new);
    worker.registerWorkflowImplementationFactory(
        WebhookDeliveryWorkflow.class, WebhookDeliveryWorkflowImpl::new);
  }
}
