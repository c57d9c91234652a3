package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.NodeType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The registry of node types: adding one is a new {@link NodeExecutor} and a line here. */
public final class NodeExecutors {

  private static final Map<NodeType, NodeExecutor> BY_TYPE = new EnumMap<>(NodeType.class);

  static {
    for (NodeExecutor executor :
        List.of(
            new WebhookTriggerNode(),
            new ScheduleTriggerNode(),
            new CrmEventTriggerNode(),
            new HttpRequestNode(),
            new ChatMessageNode(),
            new CrmUpdateNode(),
            new CreateRecordNode(),
            new DataTransformNode(),
            new EmailNode(),
            new DelayNode(),
            new ConditionNode())) {
      BY_TYPE.put(executor.type(), executor);
    }
    if (BY_TYPE.size() != NodeType.values().length) {
      throw new IllegalStateException("a node type has no executor");
    }
  }

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

  public static NodeExecutor of(NodeType type) {
    return BY_TYPE.get(type);
  }
}
