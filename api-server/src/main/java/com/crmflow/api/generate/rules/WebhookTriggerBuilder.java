package com.crmflow.api.generate.rules;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;

/** webhook_trigger: any clause that names a webhook ("when a webhook arrives"). */
final class WebhookTriggerBuilder implements TriggerBuilder {

  @Override
  public CanvasNode read(Clause clause) {
    return clause.lower().contains("webhook")
        ? TriggerBuilder.node(NodeType.WEBHOOK_TRIGGER, "Webhook received", new LinkedHashMap<>())
        : null;
  }
}
