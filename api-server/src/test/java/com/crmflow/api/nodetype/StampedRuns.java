package com.crmflow.api.nodetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** What a completed run through {@link AuditStampNode} (node id {@code stamp}) shows. */
final class StampedRuns {

  private StampedRuns() {}

  /**
   * Asserts that the run completed, that its node log's second entry is the stamp with this output,
   * and that the stored row holds it too; returns that entry for further checks.
   */
  static JsonNode assertStamped(
      JsonNode run, String runId, JdbcClient jdbc, String stamped, String level, String about) {
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    JsonNode stamp = run.at("/node_log/1");
    assertThat(stamp.get("nodeType").asString()).isEqualTo("audit_stamp");
    assertThat(stamp.get("status").asString()).isEqualTo("completed");
    assertThat(stamp.at("/output/stamped").asString()).isEqualTo(stamped);
    assertThat(stamp.at("/output/level").asString()).isEqualTo(level);
    // the run was given its contact because the type's descriptor reads what its about names
    assertThat(stamp.at("/output/about").asString()).isEqualTo(about);
    assertThat(
            jdbc.sql(
                    "select output->>'stamped' from run_node_log where run_id = :id and node_id"
                        + " = 'stamp'")
                .param("id", UUID.fromString(runId))
                .query(String.class)
                .single())
        .isEqualTo(stamped);
    return stamp;
  }
}
