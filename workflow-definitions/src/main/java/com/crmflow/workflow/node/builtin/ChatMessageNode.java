package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.ChatActivities;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** chat_message: posts the rendered message to a channel through the tenant's chat integration. */
final class ChatMessageNode implements NodeExecutor {

  /** The message, posted by api-server (which holds the tenant's chat connection). */
  static final NodeActivity<ChatActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.CRM, ChatActivities.class);

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(ACTIVITY);
  }

  @Override
  public NodeType type() {
    return NodeType.CHAT_MESSAGE;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.CHAT_MESSAGE,
            "Chat message",
            NodeDescriptor.ACTIONS,
            "chat",
            "posts to a chat channel through the tenant's chat integration",
            List.of(
                ConfigField.text("channel", "Channel")
                    .asRequired()
                    .help("a channel name (#sales) or id"),
                ConfigField.template("messageTemplate", "Message").asMultiline().asRequired()),
            NodeAccess.writes(NodeAccess.CHAT),
            List.of())
        .withSummary(NodeDescriptor.Summary.of(": ", "channel", "messageTemplate"))
        .withMechanics("ok", "ts")
        .withOutput(
            "ok",
            "whether the chat service took it",
            "channel",
            "the channel it went to",
            "ts",
            "the message’s id in the channel");
  }

  /** In a test run: the message it would post and where, not posted. */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("channel", TemplateResolver.render(NodeConfig.string(node, "channel"), run.scope()));
    shown.put(
        "text", TemplateResolver.render(NodeConfig.string(node, "messageTemplate"), run.scope()));
    return DryRuns.wouldDo(shown);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    String channel = TemplateResolver.render(NodeConfig.string(node, "channel"), run.scope());
    String text = TemplateResolver.render(NodeConfig.string(node, "messageTemplate"), run.scope());
    run.requireFitsInHistory("message", channel, text);
    return NodeActivities.stub(ACTIVITY, node)
        .post(run.input().tenantId(), channel, text, run.input().runId(), node.id());
  }

  @Override
  public boolean sideEffect() {
    return true;
  }
}
