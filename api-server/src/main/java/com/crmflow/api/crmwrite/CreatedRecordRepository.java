package com.crmflow.api.crmwrite;

import com.crmflow.api.json.JsonColumns;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** What each create_record node created, once per (run, node). */
@Repository
class CreatedRecordRepository {

  private final JdbcClient jdbc;
  private final JsonColumns json;

  CreatedRecordRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** The node's output when it created its record before. */
  Optional<Map<String, Object>> find(UUID runId, String nodeId) {
    return jdbc.sql(
            """
            select output from created_record where run_id = :runId and node_id = :nodeId
            """)
        .param("runId", runId)
        .param("nodeId", nodeId)
        .query(String.class)
        .optional()
        .map(json::readMap);
  }

  /**
   * Fails on a second entry for the node (primary key): of two attempts that ran at once, the one
   * that comes second rolls back its record and, retried, finds the first one's.
   */
  void add(UUID runId, String nodeId, UUID tenantId, Map<String, Object> output) {
    jdbc.sql(
            """
            insert into created_record (run_id, node_id, tenant_id, output)
            values (:runId, :nodeId, :tenantId, cast(:output as jsonb))
            """)
        .param("runId", runId)
        .param("nodeId", nodeId)
        .param("tenantId", tenantId)
        .param("output", json.write(output))
        .update();
  }
}
