package com.crmflow.api.nodetype;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node type that exists only in the tests and calls out: one class with a secret field (the
 * partner's key), which declares its own activity on the integrations queue and calls it through
 * {@link NodeActivities}. The workflow passes the key on as stored, sealed; the activity opens it.
 */
public class PartnerNoticeNode implements NodeExecutor {

  static final NodeType TYPE = new NodeType("partner_notice", false);

  static final NodeActivity<PartnerNoticeActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.INTEGRATIONS, PartnerNoticeActivities.class);

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
        TYPE,
        "Partner notice",
        NodeDescriptor.ACTIONS,
        "send",
        "tells a partner about the run",
        List.of(
            ConfigField.text("url", "Partner URL")
                .asRequired()
                .destination(ConfigField.Destination.ORIGIN),
            ConfigField.template("note", "Note").asRequired().maxLength(200),
            ConfigField.text("apiKey", "API key").asRequired().secret(ConfigField.Secret.VALUE)),
        new NodeAccess(List.of(), List.of()),
        List.of(),
        List.of(NodeDescriptor.Advice.CALL),
        null);
  }

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(ACTIVITY);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    PartnerNoticeActivities.Notice notice =
        new PartnerNoticeActivities.Notice(
            run.input().tenantId(),
            run.input().runId(),
            (String) node.config("url"),
            TemplateResolver.render((String) node.config("note"), run.scope()),
            (String) node.config("apiKey"));
    int status = NodeActivities.call(ACTIVITY, node, run, partner -> partner.post(notice), notice);
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("status", status);
    output.put("note", notice.note());
    return output;
  }
}
