package com.crmflow.api.flow;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.workflow.canvas.CanvasNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

@Repository
public class CanvasRepository {

  private static final TypeReference<List<StoredNode>> NODES = new TypeReference<>() {};
  private static final TypeReference<List<StoredEdge>> EDGES = new TypeReference<>() {};

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<CanvasSnapshot> mapper;

  CanvasRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new CanvasSnapshot(
                rs.getInt("version"),
                json.mapper().readValue(rs.getString("nodes"), NODES),
                json.mapper().readValue(rs.getString("edges"), EDGES),
                FlowSettings.fromStored(
                    rs.getString("settings") == null
                        ? null
                        : json.readMap(rs.getString("settings"))),
                rs.getObject("created_at", OffsetDateTime.class),
                rs.getString("goal") == null ? null : json.readMap(rs.getString("goal")));
  }

  /**
   * Versions never change once written, so a found version is kept: every trigger reads its pinned
   * version, and parsing the same nodes again on each one was a sixth of a trigger's time. Keyed by
   * tenant as every query is; a version of a deleted sequence is unreachable (its trigger nodes and
   * sequence row are gone) and ages out.
   */
  private final Cache<VersionKey, CanvasSnapshot> versions =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  private record VersionKey(UUID tenantId, UUID sequenceId, int version) {}

  public Optional<CanvasSnapshot> version(UUID tenantId, UUID sequenceId, int version) {
    VersionKey key = new VersionKey(tenantId, sequenceId, version);
    CanvasSnapshot cached = versions.getIfPresent(key);
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<CanvasSnapshot> stored = load(key);
    stored.ifPresent(snapshot -> versions.put(key, snapshot));
    return stored;
  }

  private Optional<CanvasSnapshot> load(VersionKey key) {
    return jdbc.sql(
            """
            select version, nodes, edges, settings, created_at, goal from canvas_version
            where tenant_id = :tenantId and sequence_id = :sequenceId and version = :version
            """)
        .param("tenantId", key.tenantId())
        .param("sequenceId", key.sequenceId())
        .param("version", key.version())
        .query(mapper)
        .optional();
  }

  /** The snapshot of that version, or the empty canvas for version 0. */
  public CanvasSnapshot versionOrEmpty(UUID tenantId, UUID sequenceId, int version) {
    return version == 0
        ? CanvasSnapshot.empty()
        : version(tenantId, sequenceId, version).orElseThrow();
  }

  /**
   * The settings of that version (the defaults for version 0), read alone: a look at a flow's
   * settings neither parses its nodes nor keeps the version in the cache.
   */
  public FlowSettings settings(UUID tenantId, UUID sequenceId, int version) {
    if (version == 0) {
      return FlowSettings.DEFAULTS;
    }
    String stored =
        jdbc.sql(
                """
                select settings::text from canvas_version
                where tenant_id = :tenantId and sequence_id = :sequenceId and version = :version
                """)
            .param("tenantId", tenantId)
            .param("sequenceId", sequenceId)
            .param("version", version)
            .query(String.class)
            .optional()
            .orElse(null);
    return FlowSettings.fromStored(stored == null ? null : json.readMap(stored));
  }

  void insert(UUID tenantId, UUID sequenceId, CanvasSnapshot snapshot) {
    jdbc.sql(
            """
            insert into canvas_version (tenant_id, sequence_id, version, nodes, edges, settings,
                                        goal)
            values (:tenantId, :sequenceId, :version, :nodes::jsonb, :edges::jsonb,
                    :settings::jsonb, :goal::jsonb)
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("version", snapshot.version())
        .param("nodes", json.write(snapshot.nodes()))
        .param("edges", json.write(snapshot.edges()))
        .param(
            "settings",
            snapshot.settings().stored().isEmpty()
                ? null
                : json.write(snapshot.settings().stored()))
        .param("goal", snapshot.goal() == null ? null : json.write(snapshot.goal()))
        .update();
  }

  /** A version of a canvas, as its list shows it. */
  public record VersionSummary(
      int version, int nodeCount, int edgeCount, java.time.OffsetDateTime createdAt) {}

  List<VersionSummary> versions(UUID tenantId, UUID sequenceId) {
    return jdbc.sql(
            """
            select version, jsonb_array_length(nodes) as node_count,
                   jsonb_array_length(edges) as edge_count, created_at
            from canvas_version
            where tenant_id = :tenantId and sequence_id = :sequenceId
            order by version desc
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .query(VersionSummary.class)
        .list();
  }

  /** A trigger node as the public trigger endpoint needs it, with its automation's state. */
  public record TriggerTarget(
      UUID sequenceId, String type, String status, int currentVersion, String flowType) {}

  /** The tenant's trigger node with this id and its automation's state, read in one query. */
  public Optional<TriggerTarget> triggerTarget(UUID tenantId, String nodeId) {
    return jdbc.sql(
            """
            select t.sequence_id, t.node_type as type, s.status, s.current_version, s.flow_type
            from trigger_node t
            join sequence s on s.tenant_id = t.tenant_id and s.id = t.sequence_id
            where t.tenant_id = :tenantId and t.node_id = :nodeId
            """)
        .param("tenantId", tenantId)
        .param("nodeId", nodeId)
        .query(TriggerTarget.class)
        .optional();
  }

  /**
   * The type of a node with this id in the latest canvas of one of the tenant's sequences, for the
   * trigger's answer to an id that is not a trigger's (node ids other than triggers' may repeat
   * across sequences: any one of them answers).
   */
  public Optional<String> nodeTypeOf(UUID tenantId, String nodeId) {
    return jdbc.sql(
            """
            select node ->> 'type'
            from sequence s
            join canvas_version v on v.sequence_id = s.id and v.version = s.current_version
            cross join jsonb_array_elements(v.nodes) node
            where s.tenant_id = :tenantId and node ->> 'id' = :nodeId
            limit 1
            """)
        .param("tenantId", tenantId)
        .param("nodeId", nodeId)
        .query(String.class)
        .optional();
  }

  /** Trigger node ids among these that another sequence of the tenant already uses. */
  List<String> triggerIdsTakenElsewhere(UUID tenantId, UUID sequenceId, List<String> nodeIds) {
    if (nodeIds.isEmpty()) {
      return List.of();
    }
    return jdbc.sql(
            """
            select node_id from trigger_node
            where tenant_id = :tenantId and sequence_id <> :sequenceId
              and node_id = any (:nodeIds)
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("nodeIds", nodeIds.toArray(String[]::new))
        .query(String.class)
        .list();
  }

  /** Makes trigger_node hold exactly these triggers of the sequence's latest canvas. */
  void replaceTriggers(UUID tenantId, UUID sequenceId, List<CanvasNode> triggers) {
    jdbc.sql("delete from trigger_node where tenant_id = :tenantId and sequence_id = :sequenceId")
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .update();
    for (CanvasNode node : triggers) {
      jdbc.sql(
              """
              insert into trigger_node (tenant_id, node_id, sequence_id, node_type)
              values (:tenantId, :nodeId, :sequenceId, :type)
              """)
          .param("tenantId", tenantId)
          .param("nodeId", node.id())
          .param("sequenceId", sequenceId)
          .param("type", node.type())
          .update();
    }
  }
}
