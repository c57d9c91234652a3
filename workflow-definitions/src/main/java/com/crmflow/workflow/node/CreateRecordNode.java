package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import java.util.List;
import java.util.Map;

/** create_record: creates a contact, opportunity, account, note or task from its mappings. */
final class CreateRecordNode implements NodeExecutor {

  static final List<String> ENTITIES = List.of("contact", "opportunity", "account", "note", "task");

  @Override
  public NodeType type() {
    return NodeType.CREATE_RECORD;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of("entityType", ConfigCheck.oneOf(ENTITIES), "fieldMappings", ConfigCheck.OBJECT);
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    CrmWrites.checkComplete(node, problems);
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
