package com.crmflow.api.runmove;

import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.rules.CanvasRules;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /api/sequences/{id}/runs/move}.
 *
 * @param toVersion the version the runs go on in (default: the flow's current one)
 * @param fromVersions the versions whose waiting runs move (default: every version older than
 *     {@code to_version})
 * @param dryRun answer where the runs wait and which would move, changing nothing
 * @param mapping old node id to the node of {@code to_version} a run waiting there goes on at (for
 *     nodes whose id changed); a node not in it goes on at the node with the same id
 * @param recomputeDelays a delay that is shorter in {@code to_version} wakes at its start plus the
 *     new length; otherwise every delay keeps its deadline
 */
record RunMoveRequest(
    @Schema(description = "default: the flow's current version", minimum = "1") Integer toVersion,
    @Schema(description = "default: every version older than to_version")
        List<Integer> fromVersions,
    @Schema(defaultValue = "false") Boolean dryRun,
    @Schema(description = "old node id to node id in to_version") Map<String, String> mapping,
    @Schema(defaultValue = "false") Boolean recomputeDelays) {

  private static final Set<String> FIELDS =
      Set.of("to_version", "from_versions", "dry_run", "mapping", "recompute_delays");

  /** The request as sent, each field checked: 400 naming the first field that is not right. */
  static RunMoveRequest of(JsonNode body) {
    for (String name : body.propertyNames()) {
      if (!FIELDS.contains(name)) {
        throw ApiException.badRequest(name, "is not a field of a move (" + FIELDS + ")");
      }
    }
    Integer toVersion = null;
    JsonNode to = body.get("to_version");
    if (to != null && !to.isNull()) {
      if (!to.isIntegralNumber() || !to.canConvertToInt() || to.asInt() < 1) {
        throw ApiException.badRequest("to_version", "must be a version number (1 or more)");
      }
      toVersion = to.asInt();
    }
    List<Integer> fromVersions = null;
    JsonNode from = body.get("from_versions");
    if (from != null && !from.isNull()) {
      if (!from.isArray() || from.isEmpty()) {
        throw ApiException.badRequest("from_versions", "must be a non-empty array of versions");
      }
      Set<Integer> versions = new TreeSet<>();
      for (JsonNode version : from) {
        if (!version.isIntegralNumber() || !version.canConvertToInt() || version.asInt() < 1) {
          throw ApiException.badRequest(
              "from_versions", "must hold version numbers (1 or more) only");
        }
        versions.add(version.asInt());
      }
      fromVersions = new ArrayList<>(versions);
    }
    Map<String, String> mapping = new LinkedHashMap<>();
    JsonNode mapped = body.get("mapping");
    if (mapped != null && !mapped.isNull()) {
      if (!mapped.isObject()) {
        throw ApiException.badRequest("mapping", "must be an object of old node id to node id");
      }
      for (Map.Entry<String, JsonNode> pair : mapped.properties()) {
        if (!CanvasRules.isId(pair.getKey())) {
          throw ApiException.badRequest(
              "mapping",
              "must have node ids as keys: 1 to 100 characters of letters, digits, _ . : -");
        }
        if (!pair.getValue().isString() || pair.getValue().asString().isBlank()) {
          throw ApiException.badRequest(
              "mapping." + pair.getKey(), "must be the id of a node of to_version");
        }
        mapping.put(pair.getKey(), pair.getValue().asString());
      }
    }
    return new RunMoveRequest(
        toVersion, fromVersions, flag(body, "dry_run"), mapping, flag(body, "recompute_delays"));
  }

  private static Boolean flag(JsonNode body, String name) {
    JsonNode value = body.get(name);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw ApiException.badRequest(name, "must be true or false");
    }
    return value.asBoolean();
  }

  boolean dry() {
    return Boolean.TRUE.equals(dryRun);
  }

  boolean recompute() {
    return Boolean.TRUE.equals(recomputeDelays);
  }
}
