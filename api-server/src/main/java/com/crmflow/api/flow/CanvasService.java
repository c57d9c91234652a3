package com.crmflow.api.flow;

import com.crmflow.api.access.Caller;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.rules.CanvasRules;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

/**
 * Every change to a canvas: each one is checked by the structural rules and stored as a new
 * immutable version, its secrets sealed ({@link CanvasSecrets}). A sequence that is active only
 * accepts changes that keep it complete.
 */
@Service
public class CanvasService {

  private static final String SECRET_TOKEN = "secretToken";

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final CanvasSecrets secrets;
  private final JsonColumns json;
  private final ApplicationEventPublisher publisher;
  private final NodeTypes nodeTypes;

  CanvasService(
      SequenceRepository sequences,
      CanvasRepository canvases,
      CanvasSecrets secrets,
      JsonColumns json,
      ApplicationEventPublisher publisher,
      NodeTypes nodeTypes) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.secrets = secrets;
    this.json = json;
    this.publisher = publisher;
    this.nodeTypes = nodeTypes;
  }

  /**
   * The nodes and edges a change leaves.
   *
   * @param secretsFrom the version whose stored secrets the mask keeps: the latest (null) or the
   *     version a restore copies
   * @param settings the flow's settings it leaves, or null: the latest version's
   * @param goal the flow's goal it leaves (empty: none), or null: the latest version's
   */
  private record Edit(
      List<StoredNode> nodes,
      List<StoredEdge> edges,
      CanvasSnapshot secretsFrom,
      FlowSettings settings,
      Optional<Map<String, Object>> goal) {
    Edit(List<StoredNode> nodes, List<StoredEdge> edges) {
      this(nodes, edges, null, null, null);
    }
  }

  public Sequence sequence(UUID tenantId, UUID sequenceId) {
    return sequences
        .find(tenantId, sequenceId)
        .orElseThrow(() -> ApiException.notFound("Sequence", sequenceId));
  }

  public CanvasSnapshot latest(UUID tenantId, UUID sequenceId) {
    Sequence sequence = sequence(tenantId, sequenceId);
    return canvases.versionOrEmpty(tenantId, sequenceId, sequence.currentVersion());
  }

  public CanvasSnapshot version(UUID tenantId, UUID sequenceId, int version) {
    sequence(tenantId, sequenceId);
    return canvases
        .version(tenantId, sequenceId, version)
        .orElseThrow(() -> ApiException.notFound("Canvas version", version));
  }

  public List<CanvasRepository.VersionSummary> versions(UUID tenantId, UUID sequenceId) {
    sequence(tenantId, sequenceId);
    return canvases.versions(tenantId, sequenceId);
  }

  /** A canvas the validate endpoint judged, and the problems it would meet. */
  public record Judged(Canvas canvas, List<CanvasProblem> problems) {}

  /**
   * The validate endpoint. Without a body (or with {@code {}}) the latest stored canvas, with its
   * structural and completeness problems; with a canvas body (as PUT /canvas takes it) that canvas
   * as it would be stored, with the rules of every write and then completeness. Nothing is stored.
   */
  public Judged judge(UUID tenantId, UUID sequenceId, JsonNode body) {
    Sequence sequence = sequence(tenantId, sequenceId);
    List<CanvasProblem> problems;
    Canvas canvas;
    if (body == null || body.isNull() || (body.isObject() && body.isEmpty())) {
      canvas = canvases.versionOrEmpty(tenantId, sequenceId, sequence.currentVersion()).toCanvas();
      problems = new ArrayList<>(CanvasRules.structural(canvas, nodeTypes));
    } else {
      canvas = sentCanvas(tenantId, JsonBodies.requireObject(body));
      problems = writeProblems(tenantId, sequenceId, canvas);
    }
    if (problems.isEmpty()) {
      problems.addAll(CanvasRules.completeness(canvas, sequence.isAutomation(), nodeTypes));
    }
    return new Judged(canvas, problems);
  }

  /**
   * A canvas sent as a body, as it would be stored (nodes and edges without ids get fresh ones,
   * webhook triggers their path); 400 when the body is not the shape of a canvas.
   */
  public Canvas sentCanvas(UUID tenantId, JsonNode body) {
    Sent sent = read(body);
    List<CanvasNode> nodes = new ArrayList<>();
    for (CanvasInput.NodeInput n : sent.nodes()) {
      String id = n.id() != null ? n.id() : newId();
      nodes.add(
          withServerConfig(
                  tenantId, new StoredNode(id, n.type(), n.position(), n.data(), null, null))
              .toCanvasNode());
    }
    List<CanvasEdge> edges = new ArrayList<>();
    for (CanvasInput.EdgeInput e : sent.edges()) {
      edges.add(
          new CanvasEdge(
              e.id() != null ? e.id() : newId(),
              e.source(),
              e.target(),
              Objects.requireNonNullElse(e.type(), CanvasEdge.DEFAULT),
              e.label()));
    }
    return new Canvas(nodes, edges, sent.goal() == null ? null : sent.goal().orElse(null));
  }

  /**
   * The nodes, edges, settings and goal of a canvas body, read with their shape checked; settings
   * and goal null when the body sends none ({@link FlowGoals#read}).
   */
  private record Sent(
      List<CanvasInput.NodeInput> nodes,
      List<CanvasInput.EdgeInput> edges,
      FlowSettings settings,
      Optional<Map<String, Object>> goal) {}

  private Sent read(JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    CanvasInput input = new CanvasInput(json.mapper(), problems);
    List<CanvasInput.NodeInput> nodeInputs = new ArrayList<>();
    List<CanvasInput.EdgeInput> edgeInputs = new ArrayList<>();
    for (JsonNode n : readArray(body, "nodes", problems)) {
      nodeInputs.add(input.node(n, "nodes[" + nodeInputs.size() + "]"));
    }
    for (JsonNode e : readArray(body, "edges", problems)) {
      edgeInputs.add(input.edge(e, "edges[" + edgeInputs.size() + "]"));
    }
    for (String key : body.propertyNames()) {
      if (!List.of("nodes", "edges", "settings", "goal").contains(key)) {
        problems.add(new FieldProblem(key, "is not a field of a canvas"));
      }
    }
    FlowSettings settings = FlowSettings.read(body.get("settings"), problems);
    Optional<Map<String, Object>> goal = FlowGoals.read(body.get("goal"), json.mapper(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    return new Sent(nodeInputs, edgeInputs, settings, goal);
  }

  /**
   * PUT /canvas: the whole canvas. Client node and edge ids are kept; missing ones are made. The
   * flow's settings are those sent, or the latest version's when the body sends none.
   *
   * @param looserConfirmed whether the caller confirmed a change that loosens an active
   *     automation's triggers ({@link TriggerLoosening})
   */
  @Transactional
  public CanvasSnapshot replace(
      Caller caller, UUID sequenceId, JsonNode body, boolean looserConfirmed) {
    Sent sent = read(body);
    List<CanvasInput.NodeInput> nodeInputs = sent.nodes();
    List<CanvasInput.EdgeInput> edgeInputs = sent.edges();
    return write(
        caller,
        sequenceId,
        looserConfirmed,
        current -> {
          OffsetDateTime now = now();
          Map<String, StoredNode> previous = new HashMap<>();
          current.nodes().forEach(n -> previous.put(n.id(), n));
          List<StoredNode> nodes = new ArrayList<>();
          for (CanvasInput.NodeInput n : nodeInputs) {
            String id = n.id() != null ? n.id() : newId();
            StoredNode before = previous.get(id);
            nodes.add(
                new StoredNode(
                    id,
                    n.type(),
                    n.position(),
                    n.data(),
                    before != null ? before.createdAt() : now,
                    now));
          }
          List<StoredEdge> edges = new ArrayList<>();
          for (CanvasInput.EdgeInput e : edgeInputs) {
            edges.add(
                new StoredEdge(
                    e.id() != null ? e.id() : newId(),
                    e.source(),
                    e.target(),
                    Objects.requireNonNullElse(e.type(), CanvasEdge.DEFAULT),
                    e.label(),
                    now));
          }
          return new Edit(nodes, edges, null, sent.settings(), sent.goal());
        });
  }

  /**
   * POST /generate and PUT /steps: the flow replaces the canvas, with these settings (null: the
   * latest version's).
   */
  @Transactional
  public CanvasSnapshot replaceWith(
      Caller caller,
      UUID sequenceId,
      Canvas canvas,
      FlowSettings settings,
      boolean looserConfirmed) {
    return write(
        caller, sequenceId, looserConfirmed, current -> wholeCanvas(canvas, null, settings, null));
  }

  /**
   * POST /versions/:version/restore: that version's nodes and edges, its own sealed secrets
   * included, stored as the next version (checked as any change). Each webhook trigger that the
   * current version has too keeps its current secretToken, unless {@code restoredSecrets}: then the
   * restored version's own (or none) is stored.
   */
  @Transactional
  public CanvasSnapshot restore(
      Caller caller,
      UUID sequenceId,
      int version,
      boolean restoredSecrets,
      boolean looserConfirmed) {
    CanvasSnapshot old = version(caller.tenantId(), sequenceId, version);
    return write(
        caller,
        sequenceId,
        looserConfirmed,
        current -> {
          CanvasSnapshot restored = restoredSecrets ? old : withTriggerSecretsOf(current, old);
          return wholeCanvas(
              restored.toCanvas(), restored, old.settings(), Optional.ofNullable(old.goal()));
        });
  }

  /**
   * The old version with the secretToken of each of its webhook triggers that the current version
   * has with one: as stored (sealed), so that sealing keeps it.
   */
  private static CanvasSnapshot withTriggerSecretsOf(CanvasSnapshot current, CanvasSnapshot old) {
    Map<String, Object> secrets = new HashMap<>();
    for (StoredNode node : current.nodes()) {
      if (NodeType.WEBHOOK_TRIGGER.value().equals(node.type())
          && node.data() != null
          && node.data().config() != null
          && node.data().config().get(SECRET_TOKEN) instanceof String secret
          && !secret.isEmpty()) {
        secrets.put(node.id(), secret);
      }
    }
    List<StoredNode> nodes = new ArrayList<>();
    for (StoredNode node : old.nodes()) {
      Object secret = secrets.get(node.id());
      if (secret == null || !NodeType.WEBHOOK_TRIGGER.value().equals(node.type())) {
        nodes.add(node);
        continue;
      }
      Map<String, Object> config =
          new LinkedHashMap<>(
              node.data() == null || node.data().config() == null
                  ? Map.of()
                  : node.data().config());
      config.put(SECRET_TOKEN, secret);
      nodes.add(
          new StoredNode(
              node.id(),
              node.type(),
              node.position(),
              new NodeData(node.data() == null ? "" : node.data().label(), config),
              node.createdAt(),
              node.updatedAt()));
    }
    return new CanvasSnapshot(
        old.version(), nodes, old.edges(), old.settings(), old.createdAt(), old.goal());
  }

  /**
   * The latest canvas of {@code from} as the next version of {@code to}, a flow of the same tenant
   * (a duplicate). Trigger node ids are unique in a tenant, so each trigger gets a new id (and a
   * webhook a new address) and its edges follow it; the secrets come along at the nodes that keep
   * their ids, while a renamed trigger's are left out (a new address gets a token of its own).
   */
  @Transactional
  public CanvasSnapshot copy(Caller caller, UUID from, UUID to) {
    CanvasSnapshot source = latest(caller.tenantId(), from);
    Map<String, String> renamed = new HashMap<>();
    for (CanvasNode trigger : nodeTypes.triggers(source.toCanvas())) {
      String base = trigger.id().length() > 90 ? trigger.id().substring(0, 90) : trigger.id();
      renamed.put(trigger.id(), base + "-" + newId().substring(0, 8));
    }
    OffsetDateTime now = now();
    List<StoredNode> nodes = new ArrayList<>();
    for (StoredNode n : source.nodes()) {
      String id = renamed.getOrDefault(n.id(), n.id());
      NodeData data = n.data();
      if (renamed.containsKey(n.id()) && data != null && data.config() != null) {
        Map<String, Object> config = new LinkedHashMap<>(data.config());
        nodeTypes
            .find(n.type())
            .ifPresent(
                type ->
                    type.descriptor().fields().stream()
                        .filter(f -> f.secret() != ConfigField.Secret.NONE)
                        .forEach(f -> config.remove(f.key())));
        data = new NodeData(data.label(), config);
      }
      nodes.add(new StoredNode(id, n.type(), n.position(), data, now, now));
    }
    List<StoredEdge> edges =
        source.edges().stream()
            .map(
                e ->
                    new StoredEdge(
                        e.id(),
                        renamed.getOrDefault(e.source(), e.source()),
                        renamed.getOrDefault(e.target(), e.target()),
                        e.type(),
                        e.label(),
                        now))
            .toList();
    // the copy is a draft: no live trigger of it to loosen
    return write(
        caller,
        to,
        false,
        current ->
            new Edit(nodes, edges, source, source.settings(), Optional.ofNullable(source.goal())));
  }

  /**
   * An edit that replaces the whole canvas with these nodes and edges, stamped now; its kept
   * secrets come from {@code secretsFrom} (null: the current version's).
   */
  private Edit wholeCanvas(
      Canvas canvas,
      CanvasSnapshot secretsFrom,
      FlowSettings settings,
      Optional<Map<String, Object>> goal) {
    OffsetDateTime now = now();
    List<StoredNode> nodes =
        canvas.nodes().stream()
            .map(n -> new StoredNode(n.id(), n.type(), n.position(), n.data(), now, now))
            .toList();
    List<StoredEdge> edges =
        canvas.edges().stream()
            .map(e -> new StoredEdge(e.id(), e.source(), e.target(), e.type(), e.label(), now))
            .toList();
    return new Edit(nodes, edges, secretsFrom, settings, goal);
  }

  /** POST /nodes: a new node with a server-made UUID id. */
  @Transactional
  public StoredNode addNode(
      Caller caller, UUID sequenceId, JsonNode body, boolean looserConfirmed) {
    UUID tenantId = caller.tenantId();
    List<FieldProblem> problems = new ArrayList<>();
    CanvasInput.NodeInput node = new CanvasInput(json.mapper(), problems).node(body, "body");
    if (node != null) {
      if (node.id() != null) {
        problems.add(new FieldProblem("id", "is assigned by the server"));
      }
      if (node.type() == null) {
        problems.add(new FieldProblem("type", "is required"));
      }
      if (node.position() == null) {
        problems.add(new FieldProblem("position", "is required ({x, y})"));
      }
      if (node.data() == null) {
        problems.add(new FieldProblem("data", "is required ({label, config})"));
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    String id = newId();
    CanvasSnapshot saved =
        write(
            caller,
            sequenceId,
            looserConfirmed,
            current -> {
              OffsetDateTime now = now();
              List<StoredNode> nodes = new ArrayList<>(current.nodes());
              nodes.add(new StoredNode(id, node.type(), node.position(), node.data(), now, now));
              return new Edit(nodes, current.edges());
            });
    return nodeOf(saved, id);
  }

  /** PATCH /nodes/:id: position and/or data; config keys merge, a null value removes one. */
  @Transactional
  public StoredNode patchNode(
      Caller caller, UUID sequenceId, String nodeId, JsonNode body, boolean looserConfirmed) {
    UUID tenantId = caller.tenantId();
    List<FieldProblem> problems = new ArrayList<>();
    CanvasInput input = new CanvasInput(json.mapper(), problems);
    for (String key : body.propertyNames()) {
      if (!key.equals("position") && !key.equals("data")) {
        problems.add(new FieldProblem(key, "cannot be changed (position and data can)"));
      }
    }
    var position = input.position(body.get("position"), "position");
    NodeData data = input.data(body.get("data"), "data", true);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    CanvasSnapshot saved =
        write(
            caller,
            sequenceId,
            looserConfirmed,
            current -> {
              StoredNode before = nodeOf(current, nodeId);
              Map<String, Object> config =
                  new LinkedHashMap<>(
                      before.data() == null || before.data().config() == null
                          ? Map.of()
                          : before.data().config());
              String label = before.data() == null ? "" : before.data().label();
              if (data != null) {
                if (data.label() != null) {
                  label = data.label();
                }
                if (data.config() != null) {
                  data.config()
                      .forEach(
                          (key, value) -> {
                            if (value == null) {
                              config.remove(key);
                            } else {
                              config.put(key, value);
                            }
                          });
                }
              }
              StoredNode after =
                  new StoredNode(
                      nodeId,
                      before.type(),
                      position != null ? position : before.position(),
                      new NodeData(label, config),
                      before.createdAt(),
                      now());
              List<StoredNode> nodes =
                  current.nodes().stream().map(n -> n.id().equals(nodeId) ? after : n).toList();
              return new Edit(nodes, current.edges());
            });
    return nodeOf(saved, nodeId);
  }

  /** DELETE /nodes/:id: the node and every edge touching it; answers how many edges went. */
  @Transactional
  public int deleteNode(Caller caller, UUID sequenceId, String nodeId) {
    UUID tenantId = caller.tenantId();
    int[] removed = new int[1];
    // removing a node can only take a trigger away, which loosens nothing
    write(
        caller,
        sequenceId,
        false,
        current -> {
          nodeOf(current, nodeId);
          List<StoredEdge> kept =
              current.edges().stream()
                  .filter(e -> !e.source().equals(nodeId) && !e.target().equals(nodeId))
                  .toList();
          removed[0] = current.edges().size() - kept.size();
          return new Edit(
              current.nodes().stream().filter(n -> !n.id().equals(nodeId)).toList(), kept);
        });
    return removed[0];
  }

  /** POST /edges: source and target must be nodes of the canvas (400 otherwise). */
  @Transactional
  public StoredEdge addEdge(Caller caller, UUID sequenceId, JsonNode body) {
    UUID tenantId = caller.tenantId();
    List<FieldProblem> problems = new ArrayList<>();
    CanvasInput.EdgeInput edge = new CanvasInput(json.mapper(), problems).edge(body, "body");
    if (edge != null) {
      if (edge.id() != null) {
        problems.add(new FieldProblem("id", "is assigned by the server"));
      }
      if (edge.source() == null) {
        problems.add(new FieldProblem("source", "is required"));
      }
      if (edge.target() == null) {
        problems.add(new FieldProblem("target", "is required"));
      }
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    String id = newId();
    CanvasSnapshot saved =
        write(
            caller,
            sequenceId,
            false,
            current -> {
              List<StoredEdge> edges = new ArrayList<>(current.edges());
              edges.add(
                  new StoredEdge(
                      id,
                      edge.source(),
                      edge.target(),
                      Objects.requireNonNullElse(edge.type(), CanvasEdge.DEFAULT),
                      edge.label(),
                      now()));
              return new Edit(current.nodes(), edges);
            });
    return saved.edges().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
  }

  @Transactional
  public void deleteEdge(Caller caller, UUID sequenceId, String edgeId) {
    UUID tenantId = caller.tenantId();
    write(
        caller,
        sequenceId,
        false,
        current -> {
          if (current.edges().stream().noneMatch(e -> e.id().equals(edgeId))) {
            throw ApiException.notFound("Edge", edgeId);
          }
          return new Edit(
              current.nodes(),
              current.edges().stream().filter(e -> !e.id().equals(edgeId)).toList());
        });
  }

  /**
   * The one path by which a canvas changes: lock the sequence, apply the edit to the latest
   * version, check it, store it as the next version and refresh the trigger registry. A change that
   * loosens an active automation's triggers is refused (409) unless {@code looserConfirmed}.
   */
  private CanvasSnapshot write(
      Caller caller,
      UUID sequenceId,
      boolean looserConfirmed,
      Function<CanvasSnapshot, Edit> edit) {
    UUID tenantId = caller.tenantId();
    Sequence sequence =
        sequences
            .lock(tenantId, sequenceId)
            .orElseThrow(() -> ApiException.notFound("Sequence", sequenceId));
    CanvasSnapshot current =
        canvases.versionOrEmpty(tenantId, sequenceId, sequence.currentVersion());
    Edit changed = edit.apply(current);
    List<FieldProblem> problems = new ArrayList<>();
    List<StoredNode> nodes =
        secrets.sealed(
            tenantId,
            changed.secretsFrom() != null ? changed.secretsFrom() : current,
            changed.nodes().stream().map(n -> withServerConfig(tenantId, n)).toList(),
            problems);
    CanvasSnapshot next =
        new CanvasSnapshot(
            current.version() + 1,
            nodes,
            changed.edges(),
            changed.settings() != null ? changed.settings() : current.settings(),
            now(),
            changed.goal() != null ? changed.goal().orElse(null) : current.goal());
    Canvas canvas = next.toCanvas();

    writeProblems(tenantId, sequenceId, canvas).forEach(p -> problems.add(asFieldProblem(p)));
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    if (Sequence.ACTIVE.equals(sequence.status())) {
      List<CanvasProblem> incomplete =
          CanvasRules.completeness(canvas, sequence.isAutomation(), nodeTypes);
      if (!incomplete.isEmpty()) {
        throw ApiException.unprocessable(
            "An active "
                + (sequence.isAutomation() ? "automation" : "sequence")
                + " only accepts changes that keep it complete; pause it to rebuild.",
            incomplete.stream().map(CanvasService::asFieldProblem).toList());
      }
      FlowScopes.requireHeldBy(caller, canvas, "Changing this active flow", nodeTypes);
      if (sequence.isAutomation() && !looserConfirmed) {
        List<FieldProblem> looser = TriggerLoosening.of(current.toCanvas(), canvas, nodeTypes);
        if (!looser.isEmpty()) {
          throw new ApiException(
              HttpStatus.CONFLICT,
              TriggerLoosening.refusal(sequence.name(), looser.size()),
              looser,
              Map.of());
        }
      }
    }
    canvases.insert(tenantId, sequenceId, next);
    sequences.setCurrentVersion(tenantId, sequenceId, next.version());
    canvases.replaceTriggers(tenantId, sequenceId, nodeTypes.triggers(canvas));
    publisher.publishEvent(new FlowChanged(tenantId, sequenceId));
    return next;
  }

  /** What keeps a canvas from being stored: the structural rules, config sizes, trigger ids. */
  private List<CanvasProblem> writeProblems(UUID tenantId, UUID sequenceId, Canvas canvas) {
    List<CanvasProblem> problems = new ArrayList<>(CanvasRules.structural(canvas, nodeTypes));
    for (CanvasNode node : canvas.nodes()) {
      if (node.data() != null
          && node.data().config() != null
          && json.write(node.data().config()).getBytes(StandardCharsets.UTF_8).length
              > CanvasRules.MAX_CONFIG_BYTES) {
        problems.add(
            CanvasProblem.node(
                node.id(),
                "data.config",
                "must be at most " + CanvasRules.MAX_CONFIG_BYTES + " bytes of JSON"));
      }
    }
    List<String> triggerIds = nodeTypes.triggers(canvas).stream().map(CanvasNode::id).toList();
    for (String taken : canvases.triggerIdsTakenElsewhere(tenantId, sequenceId, triggerIds)) {
      problems.add(
          CanvasProblem.node(
              taken, "id", "another sequence of this tenant has a trigger with this id"));
    }
    return problems;
  }

  /** webhook_trigger nodes get their public path; a client value is ignored. */
  private static StoredNode withServerConfig(UUID tenantId, StoredNode node) {
    if (!NodeType.WEBHOOK_TRIGGER.value().equals(node.type()) || node.data() == null) {
      return node;
    }
    Map<String, Object> config =
        new LinkedHashMap<>(node.data().config() == null ? Map.of() : node.data().config());
    config.put("webhookPath", webhookPath(tenantId, node.id()));
    return new StoredNode(
        node.id(),
        node.type(),
        node.position(),
        new NodeData(node.data().label(), config),
        node.createdAt(),
        node.updatedAt());
  }

  /** {sequence_id, version, nodes, edges} as the API shows a canvas. */
  public CanvasViews.CanvasView view(UUID sequenceId, CanvasSnapshot snapshot) {
    return CanvasViews.canvas(nodeTypes, sequenceId, snapshot);
  }

  public static String webhookPath(UUID tenantId, String nodeId) {
    return "/api/webhooks/automation/" + tenantId + "/" + nodeId;
  }

  /** "nodes.<id>.data.config.url", "edges.<id>.source" or "canvas". */
  public static FieldProblem asFieldProblem(CanvasProblem problem) {
    String field;
    if (problem.nodeId() != null) {
      field = "nodes." + problem.nodeId() + (problem.field() == null ? "" : "." + problem.field());
    } else if (problem.edgeId() != null) {
      field = "edges." + problem.edgeId() + (problem.field() == null ? "" : "." + problem.field());
    } else {
      field = "canvas";
    }
    return new FieldProblem(field, problem.message());
  }

  private static StoredNode nodeOf(CanvasSnapshot snapshot, String nodeId) {
    return snapshot.nodes().stream()
        .filter(n -> n.id().equals(nodeId))
        .findFirst()
        .orElseThrow(() -> ApiException.notFound("Node", nodeId));
  }

  private static String newId() {
    return UUID.randomUUID().toString();
  }

  private static OffsetDateTime now() {
    return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
  }

  private static List<JsonNode> readArray(JsonNode body, String key, List<FieldProblem> problems) {
    JsonNode array = body.get(key);
    if (array == null || array.isNull()) {
      return List.of();
    }
    if (!array.isArray()) {
      problems.add(new FieldProblem(key, "must be an array"));
      return List.of();
    }
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }
}
