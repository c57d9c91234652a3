package com.crmflow.api.canvas;

import com.crmflow.api.auth.Caller;
import com.crmflow.api.auth.RequiresScope;
import com.crmflow.api.auth.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.workflow.canvas.CanvasProblem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** The spec's Canvas table, under /api/sequences/:sequenceId (no version segment). */
@RestController
@RequestMapping("/api/sequences/{sequenceId}")
class CanvasController {

  private final CanvasService canvases;

  CanvasController(CanvasService canvases) {
    this.canvases = canvases;
  }

  /** {@code {canvas: {sequence_id, version, nodes, edges}}}: the latest version. */
  @GetMapping("/canvas")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> canvas(Caller caller, @PathVariable UUID sequenceId) {
    return Map.of(
        "canvas", CanvasViews.canvas(sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PutMapping("/canvas")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Object> replace(
      Caller caller, @PathVariable UUID sequenceId, @RequestBody JsonNode body) {
    CanvasSnapshot saved = canvases.replace(caller, sequenceId, JsonBodies.requireObject(body));
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("saved", true);
    response.put("node_count", saved.nodes().size());
    response.put("edge_count", saved.edges().size());
    response.put("version", saved.version());
    return response;
  }

  /** {@code {versions: [{version, node_count, edge_count, created_at}]}}, newest first. */
  @GetMapping("/versions")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> versions(Caller caller, @PathVariable UUID sequenceId) {
    return Map.of("versions", canvases.versions(caller.tenantId(), sequenceId));
  }

  /** One immutable version, as GET /canvas shows the latest. */
  @GetMapping("/versions/{version}")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> version(
      Caller caller, @PathVariable UUID sequenceId, @PathVariable int version) {
    return Map.of(
        "canvas",
        CanvasViews.canvas(sequenceId, canvases.version(caller.tenantId(), sequenceId, version)));
  }

  @GetMapping("/nodes")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> nodes(Caller caller, @PathVariable UUID sequenceId) {
    return Map.of(
        "nodes", CanvasViews.nodes(sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PostMapping("/nodes")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Object> addNode(
      Caller caller, @PathVariable UUID sequenceId, @RequestBody JsonNode body) {
    StoredNode node = canvases.addNode(caller, sequenceId, JsonBodies.requireObject(body));
    return Map.of("node", CanvasViews.node(sequenceId, node));
  }

  @PatchMapping("/nodes/{nodeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Object> patchNode(
      Caller caller,
      @PathVariable UUID sequenceId,
      @PathVariable String nodeId,
      @RequestBody JsonNode body) {
    StoredNode node =
        canvases.patchNode(caller, sequenceId, nodeId, JsonBodies.requireObject(body));
    return Map.of("node", CanvasViews.node(sequenceId, node));
  }

  @DeleteMapping("/nodes/{nodeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Object> deleteNode(
      Caller caller, @PathVariable UUID sequenceId, @PathVariable String nodeId) {
    int edgesRemoved = canvases.deleteNode(caller, sequenceId, nodeId);
    return Map.of("deleted", true, "edges_removed", edgesRemoved);
  }

  @GetMapping("/edges")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> edges(Caller caller, @PathVariable UUID sequenceId) {
    return Map.of(
        "edges", CanvasViews.edges(sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PostMapping("/edges")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  Map<String, Object> addEdge(
      Caller caller, @PathVariable UUID sequenceId, @RequestBody JsonNode body) {
    StoredEdge edge = canvases.addEdge(caller, sequenceId, JsonBodies.requireObject(body));
    return Map.of("edge", CanvasViews.edge(sequenceId, edge));
  }

  @DeleteMapping("/edges/{edgeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  Map<String, Object> deleteEdge(
      Caller caller, @PathVariable UUID sequenceId, @PathVariable String edgeId) {
    canvases.deleteEdge(caller, sequenceId, edgeId);
    return Map.of("deleted", true);
  }

  /**
   * {@code {valid, problems: [{node_id, edge_id, field, message}]}}: everything that would keep the
   * latest canvas from being activated, for editors to show.
   */
  @PostMapping("/validate")
  @RequiresScope(Scope.SEQUENCES_READ)
  Map<String, Object> validate(Caller caller, @PathVariable UUID sequenceId) {
    List<CanvasProblem> problems = canvases.problems(caller.tenantId(), sequenceId);
    return Map.of("valid", problems.isEmpty(), "problems", problems);
  }
}
