package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** The spec's Canvas table, under /api/sequences/:sequenceId (no version segment). */
@RestController
@RequestMapping("/api/sequences/{sequenceId}")
class CanvasController {

  private static final String CURRENT_SECRETS = "current";
  private static final String RESTORED_SECRETS = "restored";

  private final CanvasService canvases;
  private final NodeTypes nodeTypes;

  CanvasController(CanvasService canvases, NodeTypes nodeTypes) {
    this.canvases = canvases;
    this.nodeTypes = nodeTypes;
  }

  /** {@code {canvas: {sequence_id, version, nodes, edges}}}: the latest version. */
  @GetMapping("/canvas")
  @RequiresScope(Scope.SEQUENCES_READ)
  CanvasAnswer canvas(Caller caller, @PathVariable UUID sequenceId) {
    return new CanvasAnswer(
        CanvasViews.canvas(nodeTypes, sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PutMapping("/canvas")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  CanvasSaved replace(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = CanvasBody.class)))
          @RequestBody
          JsonNode body,
      @Parameter(description = TriggerLoosening.CONFIRM_DOC)
          @RequestParam(name = TriggerLoosening.CONFIRM, defaultValue = "false")
          boolean looserConfirmed) {
    CanvasSnapshot saved =
        canvases.replace(caller, sequenceId, JsonBodies.requireObject(body), looserConfirmed);
    return new CanvasSaved(true, saved.nodes().size(), saved.edges().size(), saved.version());
  }

  /** {@code {versions: [{version, node_count, edge_count, created_at}]}}, newest first. */
  @GetMapping("/versions")
  @RequiresScope(Scope.SEQUENCES_READ)
  CanvasVersions versions(Caller caller, @PathVariable UUID sequenceId) {
    return new CanvasVersions(canvases.versions(caller.tenantId(), sequenceId));
  }

  /** One immutable version, as GET /canvas shows the latest. */
  @GetMapping("/versions/{version}")
  @RequiresScope(Scope.SEQUENCES_READ)
  CanvasAnswer version(Caller caller, @PathVariable UUID sequenceId, @PathVariable int version) {
    return new CanvasAnswer(
        CanvasViews.canvas(
            nodeTypes, sequenceId, canvases.version(caller.tenantId(), sequenceId, version)));
  }

  /**
   * That version's canvas, with its own stored secrets, saved as the next version: answers as PUT
   * /canvas does. Each webhook trigger the current version has with a secretToken keeps it unless
   * {@code trigger_secrets=restored}. Checked as any change (an active flow stays complete, the
   * caller holds the scopes it uses, and its triggers loosen only when confirmed).
   */
  @PostMapping("/versions/{version}/restore")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  CanvasSaved restore(
      Caller caller,
      @PathVariable UUID sequenceId,
      @PathVariable int version,
      @Parameter(
              description =
                  "whose secretToken each webhook trigger gets: current (the default) keeps the"
                      + " one the trigger has now, where it has one; restored takes the restored"
                      + " version's own, or none",
              schema =
                  @Schema(
                      type = "string",
                      allowableValues = {CURRENT_SECRETS, RESTORED_SECRETS},
                      defaultValue = CURRENT_SECRETS))
          @RequestParam(name = "trigger_secrets", defaultValue = CURRENT_SECRETS)
          String triggerSecrets,
      @Parameter(description = TriggerLoosening.CONFIRM_DOC)
          @RequestParam(name = TriggerLoosening.CONFIRM, defaultValue = "false")
          boolean looserConfirmed) {
    if (!CURRENT_SECRETS.equals(triggerSecrets) && !RESTORED_SECRETS.equals(triggerSecrets)) {
      throw ApiException.badRequest(
          "trigger_secrets", "must be " + CURRENT_SECRETS + " or " + RESTORED_SECRETS);
    }
    CanvasSnapshot saved =
        canvases.restore(
            caller, sequenceId, version, RESTORED_SECRETS.equals(triggerSecrets), looserConfirmed);
    return new CanvasSaved(true, saved.nodes().size(), saved.edges().size(), saved.version());
  }

  @GetMapping("/nodes")
  @RequiresScope(Scope.SEQUENCES_READ)
  NodeList nodes(Caller caller, @PathVariable UUID sequenceId) {
    return new NodeList(
        CanvasViews.nodes(nodeTypes, sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PostMapping("/nodes")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  NodeAnswer addNode(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = NewNode.class)))
          @RequestBody
          JsonNode body,
      @Parameter(description = TriggerLoosening.CONFIRM_DOC)
          @RequestParam(name = TriggerLoosening.CONFIRM, defaultValue = "false")
          boolean looserConfirmed) {
    StoredNode node =
        canvases.addNode(caller, sequenceId, JsonBodies.requireObject(body), looserConfirmed);
    return new NodeAnswer(CanvasViews.node(nodeTypes, sequenceId, node));
  }

  @PatchMapping("/nodes/{nodeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  NodeAnswer patchNode(
      Caller caller,
      @PathVariable UUID sequenceId,
      @PathVariable String nodeId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = NodePatch.class)))
          @RequestBody
          JsonNode body,
      @Parameter(description = TriggerLoosening.CONFIRM_DOC)
          @RequestParam(name = TriggerLoosening.CONFIRM, defaultValue = "false")
          boolean looserConfirmed) {
    StoredNode node =
        canvases.patchNode(
            caller, sequenceId, nodeId, JsonBodies.requireObject(body), looserConfirmed);
    return new NodeAnswer(CanvasViews.node(nodeTypes, sequenceId, node));
  }

  @DeleteMapping("/nodes/{nodeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  NodeDeleted deleteNode(
      Caller caller, @PathVariable UUID sequenceId, @PathVariable String nodeId) {
    int edgesRemoved = canvases.deleteNode(caller, sequenceId, nodeId);
    return new NodeDeleted(true, edgesRemoved);
  }

  @GetMapping("/edges")
  @RequiresScope(Scope.SEQUENCES_READ)
  EdgeList edges(Caller caller, @PathVariable UUID sequenceId) {
    return new EdgeList(
        CanvasViews.edges(sequenceId, canvases.latest(caller.tenantId(), sequenceId)));
  }

  @PostMapping("/edges")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  EdgeAnswer addEdge(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = NewEdge.class)))
          @RequestBody
          JsonNode body) {
    StoredEdge edge = canvases.addEdge(caller, sequenceId, JsonBodies.requireObject(body));
    return new EdgeAnswer(CanvasViews.edge(sequenceId, edge));
  }

  @DeleteMapping("/edges/{edgeId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  EdgeDeleted deleteEdge(
      Caller caller, @PathVariable UUID sequenceId, @PathVariable String edgeId) {
    canvases.deleteEdge(caller, sequenceId, edgeId);
    return new EdgeDeleted(true);
  }

  /**
   * {@code {valid, problems: [{node_id, edge_id, field, message, node_label, field_label, text}]}}:
   * everything that would keep a canvas from being activated, for editors to show. Without a body
   * (or with {@code {}}) the latest stored canvas is judged; with a canvas body ({@code {nodes,
   * edges}}, as PUT /canvas takes it) that canvas is, as if it were saved, and nothing is stored.
   */
  @PostMapping("/validate")
  @RequiresScope(Scope.SEQUENCES_READ)
  CanvasValidation validate(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = false,
              content = @Content(schema = @Schema(implementation = CanvasBody.class)))
          @RequestBody(required = false)
          JsonNode body) {
    CanvasService.Judged judged = canvases.judge(caller.tenantId(), sequenceId, body);
    return new CanvasValidation(
        judged.problems().isEmpty(),
        new CanvasWords(judged.canvas(), nodeTypes).word(judged.problems()));
  }

  /** {@code {canvas}}. */
  record CanvasAnswer(CanvasViews.CanvasView canvas) {}

  /** {@code {saved, node_count, edge_count, version}}: the version the PUT created. */
  record CanvasSaved(boolean saved, int nodeCount, int edgeCount, int version) {}

  /** {@code {versions}}, newest first. */
  record CanvasVersions(List<CanvasRepository.VersionSummary> versions) {}

  /** {@code {nodes}}. */
  record NodeList(List<CanvasViews.NodeView> nodes) {}

  /** {@code {node}}. */
  record NodeAnswer(CanvasViews.NodeView node) {}

  /** {@code {deleted, edges_removed}}: the node and the edges that touched it. */
  record NodeDeleted(boolean deleted, int edgesRemoved) {}

  /** {@code {edges}}. */
  record EdgeList(List<CanvasViews.EdgeView> edges) {}

  /** {@code {edge}}. */
  record EdgeAnswer(CanvasViews.EdgeView edge) {}

  /** {@code {deleted}}. */
  record EdgeDeleted(boolean deleted) {}

  /** {@code {valid, problems}}. */
  record CanvasValidation(boolean valid, List<CanvasWords.Worded> problems) {}

  /** The body of POST /nodes. */
  record NewNode(
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String type,
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Position position,
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) NodeData data) {}

  /** The body of PATCH /nodes/{nodeId}: config fields merge into the node's. */
  record NodePatch(Position position, NodeData data) {}

  /** The body of POST /edges. */
  record NewEdge(
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String source,
      @Schema(requiredMode = Schema.RequiredMode.REQUIRED) String target,
      @Schema(description = "default when absent") String type,
      String label) {}
}
