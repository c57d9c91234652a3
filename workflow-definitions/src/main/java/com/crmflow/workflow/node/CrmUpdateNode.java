package com.crmflow.workflow.node;

import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.List;
import java.util.Map;

/**
 * crm_update: changes the record named by {@code recordId} (variables allowed; by default the
 * trigger's {@code <entityType>_id}, and for contacts the run's contact).
 */
final class CrmUpdateNode implements NodeExecutor {

  static final List<String> ENTITIES = List.of("contact", "opportunity", "account");

  @Override
  public NodeType type() {
    return NodeType.CRM_UPDATE;
  }

  @Override
  public Map<String, ConfigCheck> configFields() {
    return Map.of(
        "entityType", ConfigCheck.oneOf(ENTITIES),
        "fieldMappings", ConfigCheck.OBJECT,
        "recordId", ConfigCheck.STRING);
  }

  @Override
  public void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {
    CrmWrites.checkComplete(node, problems);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
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
    CrmWrite write = CrmWrites.write(node, run, recordId);
    return CrmActivities.call(
        CrmRecordActivities.class, node, run, crm -> crm.update(write), write);
  }

  @Override
  public boolean sideEffect() {
    return true;
  }
}
