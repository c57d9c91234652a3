package com.crmflow.workflow.registration;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.contract.AutomationRunWorkflow;
import com.crmflow.workflow.contract.RunRecorderActivities;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.enrollment.EnrollmentWorkflowImpl;
import com.crmflow.workflow.node.FlowGoal;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;
import com.crmflow.workflow.run.InterpreterChanges;
import com.crmflow.workflow.schedule.ScheduleActivities;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflow;
import com.crmflow.workflow.schedule.ScheduleTriggerWorkflowImpl;
import com.crmflow.workflow.webhook.WebhookActivities;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflow;
import com.crmflow.workflow.webhook.WebhookDeliveryWorkflowImpl;
import io.temporal.worker.Worker;
import java.util.ArrayList;
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

  /**
   * The activities the workflows call beside those of their node types: the run's recording (local
   * in a run with local activities), a schedule's firing, a webhook's delivery attempts, and a
   * goal's check.
   */
  public static final List<NodeActivity<?>> ENGINE_ACTIVITIES =
      List.of(
          NodeActivity.on(TaskQueues.CRM, RunRecorderActivities.class).orLocal(),
          NodeActivity.on(TaskQueues.CRM, ScheduleActivities.class),
          NodeActivity.on(TaskQueues.CRM, WebhookActivities.class),
          FlowGoal.ACTIVITY);

  private WorkflowImplementations() {}

  /**
   * Every activity the workflows call when their runs run the node types of {@code catalog}: the
   * engine's ({@link #ENGINE_ACTIVITIES}) and each type's ({@link NodeExecutor#activities}), in
   * that order, an activity declared twice listed twice.
   */
  public static List<NodeActivity<?>> activities(NodeCatalog catalog) {
    List<NodeActivity<?>> all = new ArrayList<>(ENGINE_ACTIVITIES);
    for (NodeExecutor executor : catalog.all()) {
      all.addAll(executor.activities());
    }
    return all;
  }

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
