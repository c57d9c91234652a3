package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.action.CrmWrite;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.List;
import java.util.Map;

/**
 * crm_update: changes the record named by {@code recordId} (variables allowed; by default the
 * trigger's {@code <entityType>_id}, and for contacts the run's contact).
 */
final class CrmUpdateNode implements NodeExecutor {

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(CrmWrites.ACTIVITY.orLocal());
  }

  static final List<String> ENTITIES = List.of("contact", "opportunity", "account");

  @Override
  public NodeType type() {
    return NodeType.CRM_UPDATE;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.CRM_UPDATE,
            "CRM update",
            NodeDescriptor.ACTIONS,
            "pencil",
            "changes a record",
            List.of(
                ConfigField.select("entityType", "Record", ENTITIES).asRequired(),
                ConfigField.of("fieldMappings", "Field mappings (JSON object)", FieldKind.JSON)
                    .asRequired()
                    .help("field -> value or template, e.g. {\"lifecycle_stage\": \"customer\"}"),
                ConfigField.template("recordId", "Record id")
                    .help(
                        "default: the trigger's record ({{trigger.<entityType>_id}}); for a"
                            + " contact without one, the run's contact")),
            NodeAccess.writes("{entityType}"),
            List.of())
        .withSummary(NodeDescriptor.Summary.of(" ← ", "entityType", "fieldMappings"))
        .withMechanics(CrmWrites.MECHANICS)
        .withOutput(
            "entity_type",
            "the record type changed",
            "id",
            "the record’s id",
            "record",
            "the record as changed, every field");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    CrmWrites.checkComplete(node, problems);
  }

  /** In a test run: the write it would make (entity, record id, fields), not made. */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    return CrmWrites.wouldWrite(write(node, run));
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    CrmWrite write = write(node, run);
    return NodeActivities.call(
        CrmWrites.ACTIVITY.orLocal(), node, run, crm -> crm.update(write), write);
  }

  /** The write of the record named by recordId, or the trigger's or the run's contact. */
  private static CrmWrite write(CanvasNode node, NodeRun run) {
    String entityType = NodeConfig.string(node, "entityType");
    String configured = NodeConfig.string(node, "recordId");
    String recordId =
        TemplateResolver.render(
            configured != null ? configured : "{{trigger." + entityType + "_id}}", run.scope());
    if (recordId.isBlank() && "contact".equals(entityType)) {
      recordId = run.contactId();
    }
    if (recordId == null || recordId.isBlank()) {
      throw new NodeFailure(
          "crm_update has no record to update: set recordId or send "
              + entityType
              + "_id in the trigger payload");
    }
    return CrmWrites.write(node, run, recordId);
  }

  @Override
  public boolean sideEffect() {
    return true;
  }
}
