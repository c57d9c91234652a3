package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.util.Map;

/**
 * webhook_trigger: a run starts when its public URL is called. Its webhookPath is assigned by the
 * server; its secretToken, optional, is checked against X-Webhook-Secret. The payload is the run's
 * {@code trigger} variable, so the node itself outputs nothing.
 */
final class WebhookTriggerNode implements NodeExecutor {

  @Override
  public NodeType type() {
    return NodeType.WEBHOOK_TRIGGER;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of("webhookPath", ConfigCheck.STRING, "secretToken", ConfigCheck.STRING);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return Map.of();
  }

  @Override
  public boolean waits() {
    return false;
  }
}
