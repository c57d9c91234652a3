package com.crmflow.api.flow;

import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads nodes and edges from request JSON, reporting shape problems (a position that is not {x, y},
 * a config that is not an object, unknown keys) with the node's id in the field name. Fields a
 * client gets back from GET (sequence_id, created_at, updated_at) may be sent back.
 */
final class CanvasInput {

  private static final Set<String> NODE_KEYS =
      Set.of("id", "type", "position", "data", "sequence_id", "created_at", "updated_at");
  private static final Set<String> EDGE_KEYS =
      Set.of("id", "source", "target", "type", "label", "sequence_id", "created_at");

  /** A node as sent: id may be null (the server assigns one). */
  record NodeInput(String id, String type, Position position, NodeData data) {}

  record EdgeInput(String id, String source, String target, String type, String label) {}

  private final JsonMapper mapper;
  private final List<FieldProblem> problems;

  CanvasInput(JsonMapper mapper, List<FieldProblem> problems) {
    this.mapper = mapper;
    this.problems = problems;
  }

  NodeInput node(JsonNode json, String where) {
    if (json == null || !json.isObject()) {
      problems.add(new FieldProblem(where, "must be an object"));
      return null;
    }
    unknownKeys(json, NODE_KEYS, where);
    String id = text(json, "id", where);
    String name = id == null ? where : "nodes." + id;
    String type = text(json, "type", name);
    Position position = position(json.get("position"), name + ".position");
    NodeData data = data(json.get("data"), name + ".data", false);
    return new NodeInput(id, type, position, data);
  }

  EdgeInput edge(JsonNode json, String where) {
    if (json == null || !json.isObject()) {
      problems.add(new FieldProblem(where, "must be an object"));
      return null;
    }
    unknownKeys(json, EDGE_KEYS, where);
    String id = text(json, "id", where);
    String name = id == null ? where : "edges." + id;
    return new EdgeInput(
        id,
        text(json, "source", name),
        text(json, "target", name),
        text(json, "type", name),
        text(json, "label", name));
  }

  Position position(JsonNode json, String where) {
    if (json == null || json.isNull()) {
      return null;
    }
    if (!json.isObject()
        || json.get("x") == null
        || !json.get("x").isNumber()
        || json.get("y") == null
        || !json.get("y").isNumber()
        || json.size() != 2) {
      problems.add(new FieldProblem(where, "must be {x: number, y: number}"));
      return null;
    }
    return new Position(json.get("x").doubleValue(), json.get("y").doubleValue());
  }

  /**
   * @param partial PATCH: label and config may each be absent (null), to keep their values
   */
  NodeData data(JsonNode json, String where, boolean partial) {
    if (json == null || json.isNull()) {
      return null;
    }
    if (!json.isObject()) {
      problems.add(new FieldProblem(where, "must be {label, config}"));
      return null;
    }
    unknownKeys(json, Set.of("label", "config"), where);
    String label = text(json, "label", where);
    JsonNode config = json.get("config");
    Map<String, Object> configMap;
    if (config == null || config.isNull()) {
      configMap = partial ? null : new LinkedHashMap<>();
    } else if (!config.isObject()) {
      problems.add(new FieldProblem(where + ".config", "must be an object"));
      configMap = null;
    } else {
      configMap = configMap(config);
    }
    return new NodeData(label == null && !partial ? "" : label, configMap);
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> configMap(JsonNode config) {
    // null values are kept: in a PATCH they remove the key
    Map<String, Object> map = new LinkedHashMap<>();
    for (String key : config.propertyNames()) {
      JsonNode value = config.get(key);
      map.put(key, value.isNull() ? null : mapper.treeToValue(value, Object.class));
    }
    return map;
  }

  private String text(JsonNode json, String key, String where) {
    JsonNode value = json.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isString()) {
      problems.add(new FieldProblem(where + "." + key, "must be a string"));
      return null;
    }
    return value.stringValue();
  }

  private void unknownKeys(JsonNode json, Set<String> allowed, String where) {
    for (String key : json.propertyNames()) {
      if (!allowed.contains(key)) {
        problems.add(new FieldProblem(where + "." + key, "is not a field here"));
      }
    }
  }
}
