package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.NodeType;
import java.util.List;

/**
 * The built-in node types: what the workflow code runs. api-server collects these and any other
 * {@link NodeExecutor} bean into its own {@link NodeCatalog}.
 */
public final class NodeExecutors {

  private static final List<NodeExecutor> BUILT_IN =
      List.of(
          new WebhookTriggerNode(),
          new ScheduleTriggerNode(),
          new CrmEventTriggerNode(),
          new EmailNode(),
          new DelayNode(),
          new ConditionNode(),
          new HttpRequestNode(),
          new ChatMessageNode(),
          new CrmUpdateNode(),
          new CreateRecordNode(),
          new DataTransformNode());

  private static final NodeCatalog CATALOG = NodeCatalog.of(BUILT_IN);

  private NodeExecutors() {}

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
  public static List<NodeExecutor> builtIn() {
    return BUILT_IN;
  }

  /** The catalog of the built-in types. */
  public static NodeCatalog catalog() {
    return CATALOG;
  }

  public static NodeExecutor of(NodeType type) {
    return CATALOG.find(type.value()).orElse(null);
  }
}
