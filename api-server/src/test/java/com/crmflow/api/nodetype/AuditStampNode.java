package com.crmflow.api.nodetype;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.List;
import java.util.Map;

/**
 * A node type that exists only in the tests: one class, registered as a bean, and nothing else
 * edited. It declares that it writes tasks, so a flow with it needs tasks:write; in a run it
 * outputs its note with the template variables filled in, in workflow code.
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
    String note = node.config("note") instanceof String text ? text : "";
    String level = node.config("level") instanceof String text ? text : "info";
    return Map.of("stamped", TemplateResolver.render(note, run.scope()), "level", level);
  }

  @Override
  public boolean waits() {
    return false;
  }
}
