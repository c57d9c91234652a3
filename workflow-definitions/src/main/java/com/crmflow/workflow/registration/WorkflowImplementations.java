package com.crmflow.workflow.registration;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflowImpl;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutors;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;
import com.crmflow.workflow.run.InterpreterChanges;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflow;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflowImpl;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflowImpl;
import io.temporal.worker.Worker;
import java.util.List;

/**
 * The product's workflows, for a worker of the {@link TaskQueues#AUTOMATION} queue. Each execution
 * gets a new instance from a plain constructor, given only the worker's node types: the Temporal
 * starter's own registration (a Spring bean created per execution) costs about 1.5% of the CPU of a
 * short run.
 */
public final class WorkflowImplementations {

  /**
   * The interpreter's changes that a run started now takes from its start, for its input's {@code
   * startedWithChanges}: a host that starts runs names them through here, not through the
   * interpreter's package, which only the workflows above it see.
   */
  public static final List<String> FRESH_RUN_CHANGES = InterpreterChanges.CHANGES;

  private WorkflowImplementations() {}

  /**
   * Registers the workflows, whose runs run the node types of {@code catalog}: the worker's types,
   * fixed when it starts ({@link NodeExecutors#with}).
   */
  public static void registerOn(Worker worker, NodeCatalog catalog) {
    worker.registerWorkflowImplementationFactory(
        AutomationRunWorkflow.class, () -> new AutomationRunWorkflowImpl(catalog));
    worker.registerWorkflowImplementationFactory(
        EnrollmentWorkflow.class, () -> new EnrollmentWorkflowImpl(catalog));
    worker.registerWorkflowImplementationFactory(
        ScheduleTriggerWorkflow.class, ScheduleTriggerWorkflowImpl::new);
    worker.registerWorkflowImplementationFactory(
        WebhookDeliveryWorkflow.class, WebhookDeliveryWorkflowImpl::new);
  }
}
