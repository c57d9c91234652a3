package com.crmflow.api.nodeeffect;

import com.crmflow.api.json.JsonColumns;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What a node with an effect outside the run (a created record, a chat message) did, once per (run,
 * node), so that the node run again answers with it instead of doing it twice.
 */
@Repository
public class NodeEffectRepository {

  private final JdbcClient jdbc;
  private final JsonColumns json;

  NodeEffectRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** The node's output when its effect took place before. */
  public Optional<Map<String, Object>> find(UUID runId, String nodeId) {
    return jdbc.sql(
            """
            select output from node_effect where run_id = :runId and node_id = :nodeId
            """)
        .param("runId", runId)
        .param("nodeId", nodeId)
        .query(String.class)
        .optional()
        .map(json::readMap);
  }

  /**
   * The node's effect, once: the output noted for (run, node) if there is one, else {@code
   * effect}'s output, noted. Inside a transaction, the effect and its note commit together.
   */
  public Map<String, Object> once(
      UUID runId, String nodeId, UUID tenantId, Supplier<Map<String, Object>> effect) {
    return find(runId, nodeId)
        .orElseGet(
            () -> {
              Map<String, Object> output = effect.get();
              add(runId, nodeId, tenantId, output);
              return output;
            });
  }

  /**
   * Fails on a second entry for the node (primary key): of two attempts that ran at once, the one
   * that comes second fails (rolling back its transaction, if any) and, retried, finds the first
   * one's.
   */
  public void add(UUID runId, String nodeId, UUID tenantId, Map<String, Object> output) {
    jdbc.sql(
            """
            insert into node_effect (run_id, node_id, tenant_id, output)
            values (:runId, :nodeId, :tenantId, cast(:output as jsonb))
            """)
        .param("runId", runId)
        .param("nodeId", nodeId)
        .param("tenantId", tenantId)
        .param("output", json.write(output))
        .update();
  }
}
