package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * A canvas as PUT /canvas, POST /validate and POST /optimize take it: its nodes, edges and the
 * flow's settings. The document's schema; the bodies are read by {@link CanvasService}.
 */
@Schema(name = "Canvas")
public record CanvasBody(
    List<CanvasNode> nodes,
    List<CanvasEdge> edges,
    @Schema(description = "the flow's settings; left out: those of the latest version")
        FlowSettings settings) {}
