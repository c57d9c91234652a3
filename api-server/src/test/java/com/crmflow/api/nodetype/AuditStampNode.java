package com.crmflow.api.nodetype;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import java.util.List;
import java.util.Map;

/**
 * A node type that exists only in the tests: one class, registered as a bean, and nothing else
 * edited. It writes tasks, so a flow with it needs tasks:write.
 */
public class AuditStampNode implements NodeExecutor {

  static final NodeType TYPE = new NodeType("audit_stamp", false);

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
        TYPE,
        "Audit stamp",
        NodeDescriptor.ACTIONS,
        "stamp",
        "files a task that stamps the run for the auditors",
        List.of(
            ConfigField.template("note", "Note").asRequired().maxLength(200).help("what to stamp"),
            ConfigField.select("level", "Level", List.of("info", "warn"))),
        NodeAccess.writes("task"),
        List.of());
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return Map.of("stamped", true);
  }

  @Override
  public boolean waits() {
    return false;
  }
}
