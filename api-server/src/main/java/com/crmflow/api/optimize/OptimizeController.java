package com.crmflow.api.optimize;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.canvas.CanvasService;
import com.crmflow.api.sequence.Sequence;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.Canvas;
import java.util.List;
import java.util.UUID;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/** POST /api/sequences/:id/optimize: 404 unknown sequence, 422 empty canvas. */
@RestController
class OptimizeController {

  private final CanvasService canvases;

  OptimizeController(CanvasService canvases) {
    this.canvases = canvases;
  }

  @PostMapping("/api/sequences/{sequenceId}/optimize")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  SuggestionList optimize(Caller caller, @PathVariable UUID sequenceId) {
    Sequence sequence = canvases.sequence(caller.tenantId(), sequenceId);
    Canvas canvas = canvases.latest(caller.tenantId(), sequenceId).toCanvas();
    if (canvas.nodes().isEmpty()) {
      throw ApiException.unprocessable("The canvas is empty: nothing to optimize.", List.of());
    }
    return new SuggestionList(CanvasOptimizer.suggest(canvas, sequence.isAutomation()));
  }

  /** {@code {suggestions}}. */
  record SuggestionList(List<Suggestion> suggestions) {}
}
