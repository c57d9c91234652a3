package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.CrmRecordActivities;
import com.crmflow.workflow.action.CrmWrite;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeConfig;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What crm_update and create_record share: field mappings rendered here, written by api-server. */
final class CrmWrites {

  /** The crm writes, called on the crm queue. */
  static final NodeActivity<CrmRecordActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.CRM, CrmRecordActivities.class);

  private CrmWrites() {}

  /**
   * The keys of a write's output of its own making: what it wrote (entity_type), the record's id,
   * and the automations its events do not start.
   */
  static final String[] MECHANICS = {"entity_type", "id", "automations_not_started"};

  static void checkComplete(CanvasNode node, List<CanvasProblem> problems) {
    if (node.config("fieldMappings") instanceof Map<?, ?> m && m.isEmpty()) {
      problems.add(CanvasProblem.node(node.id(), "data.config.fieldMappings", "maps no field"));
    }
  }

  /** The write of this node: its rendered field mappings, for the record named (or a new one). */
  @SuppressWarnings("unchecked")
  static CrmWrite write(CanvasNode node, NodeRun run, String recordId) {
    Map<String, Object> fields =
        node.config("fieldMappings") instanceof Map<?, ?> mappings
            ? (Map<String, Object>) TemplateResolver.renderValue(mappings, run.scope())
            : Map.of();
    CrmWrite write =
        new CrmWrite(
            run.input().tenantId(),
            NodeConfig.string(node, "entityType"),
            recordId,
            fields,
            run.input().runId(),
            node.id());
    run.requireFitsInHistory("record", write);
    return write;
  }

  /** What a test run shows of a write it does not make: the record type, its id, the fields. */
  static Map<String, Object> wouldWrite(CrmWrite write) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("entity_type", write.entityType());
    shown.put("id", write.recordId());
    shown.put("fields", write.fields());
    return DryRuns.wouldDo(shown);
  }

  static CrmRecordActivities activities(CanvasNode node) {
    return NodeActivities.stub(ACTIVITY, node);
  }
}
