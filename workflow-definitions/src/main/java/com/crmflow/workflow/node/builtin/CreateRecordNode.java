package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeRun;
import java.util.List;
import java.util.Map;

/** create_record: creates a contact, opportunity, account, note or task from its mappings. */
final class CreateRecordNode implements NodeExecutor {

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(CrmWrites.ACTIVITY);
  }

  static final List<String> ENTITIES = List.of("contact", "opportunity", "account", "note", "task");

  @Override
  public NodeType type() {
    return NodeType.CREATE_RECORD;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.CREATE_RECORD,
            "Create record",
            NodeDescriptor.ACTIONS,
            "plus",
            "creates a record",
            List.of(
                ConfigField.select("entityType", "Record", ENTITIES).asRequired(),
                ConfigField.of("fieldMappings", "Field mappings (JSON object)", FieldKind.JSON)
                    .asRequired()
                    .help("task: title, due_date; note: content; opportunity: name, stage, value")),
            NodeAccess.writes("{entityType}"),
            List.of())
        .withSummary(NodeDescriptor.Summary.of(" ", "entityType", "fieldMappings").lead("new"))
        .withMechanics(CrmWrites.MECHANICS)
        .withOutput(
            "entity_type",
            "the record type created",
            "id",
            "the new record’s id",
            "record",
            "the new record, every field");
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    CrmWrites.checkComplete(node, problems);
  }

  /** In a test run: the record it would create (entity, fields), not created. */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    return CrmWrites.wouldWrite(CrmWrites.write(node, run, null));
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    return CrmWrites.activities(node).create(CrmWrites.write(node, run, null));
  }

  @Override
  public boolean sideEffect() {
    return true;
  }
}
