package com.crmflow.api.nodetype;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node type that exists only in the tests: one class, registered as a bean, and nothing else
 * edited. It declares that it writes tasks, so a flow with it needs tasks:write, and that it reads
 * the record type its {@code about} names; in a run it outputs its note with the template variables
 * filled in, and the email of the contact it is about, in workflow code.
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
                ConfigField.template("note", "Note")
                    .asRequired()
                    .maxLength(200)
                    .help("what to stamp"),
                ConfigField.select("level", "Level", List.of("info", "warn")),
                ConfigField.select("about", "About", List.of("contact"))
                    .help("the record the stamp names, read when set")),
            new NodeAccess(List.of("{about}"), List.of("task")),
            List.of())
        .withSummary(NodeDescriptor.Summary.of(" · ", "level", "note").lead("Stamp"));
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    String note = node.config("note") instanceof String text ? text : "";
    String level = node.config("level") instanceof String text ? text : "info";
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("stamped", TemplateResolver.render(note, run.scope()));
    output.put("level", level);
    if ("contact".equals(node.config("about"))) {
      // the run has its contact only when the flow reads it: the API's node types say so
      output.put("about", TemplateResolver.render("{{contact.email}}", run.scope()));
    }
    return output;
  }

  @Override
  public boolean waits() {
    return false;
  }
}
