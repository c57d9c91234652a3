package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import java.util.List;

/**
 * The built-in node types, in the palette's order, and the nodes' changes that every run started
 * with this code takes. A process's catalog adds its own types to them ({@code
 * com.crmflow.workflow.registration.NodeExecutors#with}).
 */
public final class BuiltInNodes {

  private static final List<NodeExecutor> BUILT_IN =
      List.of(
          new WebhookTriggerNode(),
          new ScheduleTriggerNode(),
          new CrmEventTriggerNode(),
          new EmailNode(),
          new DelayNode(),
          new WaitUntilNode(),
          new ConditionNode(),
          new SplitNode(),
          new HttpRequestNode(),
          new ChatMessageNode(),
          new CrmUpdateNode(),
          new CreateRecordNode(),
          new DataTransformNode());

  private static final NodeCatalog CATALOG = NodeCatalog.of(BUILT_IN);

  private BuiltInNodes() {}

  /**
   * The nodes' changes ({@code Workflow.getVersion} ids) whose new path every run started with this
   * code takes (see {@code RunInput#startedWithChanges}).
   */
  public static final List<String> CHANGES =
      List.of(
          DelayNode.FAILURE_CUTS_DELAYS,
          EmailNode.BOOK_UNKNOWN_EMAIL,
          EmailNode.TEMPLATE_READS_CONTACT_AND_TRIGGER);

  /** The built-in executors, in the palette's order. */
  public static List<NodeExecutor> all() {
    return BUILT_IN;
  }

  /** The catalog of the built-in types. */
  public static NodeCatalog catalog() {
    return CATALOG;
  }
}
