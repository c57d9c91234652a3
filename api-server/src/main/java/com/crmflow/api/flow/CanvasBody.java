package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.Map;

/**
 * A canvas as PUT /canvas, POST /validate and POST /optimize take it: its nodes, edges and the
 * flow's settings and goal. The document's schema; the bodies are read by {@link CanvasService}.
 */
@Schema(name = "Canvas")
public record CanvasBody(
    List<CanvasNode> nodes,
    List<CanvasEdge> edges,
    @Schema(description = "the flow's settings; left out: those of the latest version")
        FlowSettings settings,
    @Schema(
            description =
                "the flow's goal: a condition on the run's contact in the shape of a condition"
                    + " node's config, {field, operator, value}, whose templates read only the"
                    + " contact ({{contact.lifecycle_stage}}). A run whose contact meets it ends,"
                    + " completed, with exit {reason: goal, at_node}. Left out: the latest"
                    + " version's; null: none.",
            nullable = true,
            example =
                "{\"field\": \"{{contact.lifecycle_stage}}\", \"operator\": \"equals\","
                    + " \"value\": \"customer\"}")
        Map<String, Object> goal) {}
