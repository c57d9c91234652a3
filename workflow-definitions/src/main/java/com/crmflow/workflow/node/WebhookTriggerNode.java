package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.NodeType;
import java.util.Map;

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
  public Map<String, ConfigCheck> configFields() {
    return Map.of("webhookPath", ConfigCheck.STRING, "secretToken", ConfigCheck.STRING);
  }
}
