package com.crmflow.api.optimize;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.CanvasBody;
import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.Canvas;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * POST /api/sequences/:id/optimize: suggestions for the latest canvas, or for a canvas sent as the
 * body (as PUT /canvas takes it); nothing is stored. 404 unknown sequence, 422 empty canvas.
 */
@RestController
class OptimizeController {

  private final CanvasService canvases;
  private final NodeTypes nodeTypes;

  OptimizeController(CanvasService canvases, NodeTypes nodeTypes) {
    this.canvases = canvases;
    this.nodeTypes = nodeTypes;
  }

  @PostMapping("/api/sequences/{sequenceId}/optimize")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  SuggestionList optimize(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = false,
              content = @Content(schema = @Schema(implementation = CanvasBody.class)))
          @RequestBody(required = false)
          JsonNode body) {
    Sequence sequence = canvases.sequence(caller.tenantId(), sequenceId);
    // without a body (or with {}) the latest stored canvas; with {nodes, edges} the one sent
    Canvas canvas =
        body == null || body.isNull() || (body.isObject() && body.isEmpty())
            ? canvases.latest(caller.tenantId(), sequenceId).toCanvas()
            : canvases.sentCanvas(caller.tenantId(), JsonBodies.requireObject(body));
    if (canvas.nodes().isEmpty()) {
      throw ApiException.unprocessable("The canvas is empty: nothing to optimize.", List.of());
    }
    return new SuggestionList(CanvasOptimizer.suggest(canvas, sequence.isAutomation(), nodeTypes));
  }

  /** {@code {suggestions}}. */
  record SuggestionList(List<Suggestion> suggestions) {}
}
