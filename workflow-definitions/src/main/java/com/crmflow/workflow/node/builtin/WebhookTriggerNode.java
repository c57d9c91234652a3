package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import java.util.List;

/**
 * webhook_trigger: a run starts when its public URL is called. Its webhookPath is assigned by the
 * server; its secretToken, optional, is checked against X-Webhook-Secret.
 */
final class WebhookTriggerNode extends TriggerNode {

  @Override
  public NodeType type() {
    return NodeType.WEBHOOK_TRIGGER;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.WEBHOOK_TRIGGER,
            "Webhook trigger",
            NodeDescriptor.TRIGGERS,
            "webhook",
            "starts the flow when an HTTP call arrives",
            List.of(
                ConfigField.text("webhookPath", "Webhook path")
                    .asReadOnly()
                    .help(
                        "assigned when the node is created: /api/webhooks/automation/<tenant>/<node>"),
                ConfigField.of("secretToken", "Secret token (X-Webhook-Secret)", FieldKind.SECRET)
                    .help("when set, a call must carry it in the X-Webhook-Secret header")),
            NodeAccess.NONE,
            List.of())
        .withSummary(NodeDescriptor.Summary.of(", ", "secretToken"));
  }
}
