package com.crmflow.api.schedule;

import com.crmflow.api.json.JsonColumns;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ScheduleTriggerRepository {

  static final String STARTING = "starting";
  static final String RUNNING = "running";
  static final String STOPPING = "stopping";

  /** A schedule workflow that should run (or stop), as stored. */
  record ScheduleRow(
      UUID tenantId,
      String nodeId,
      UUID sequenceId,
      int canvasVersion,
      Map<String, Object> config,
      String state) {}

  private static final String COLUMNS =
      "tenant_id, node_id, sequence_id, canvas_version, config::text as config, state";

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<ScheduleRow> mapper;

  ScheduleTriggerRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new ScheduleRow(
                rs.getObject("tenant_id", UUID.class),
                rs.getString("node_id"),
                rs.getObject("sequence_id", UUID.class),
                rs.getInt("canvas_version"),
                json.readMap(rs.getString("config")),
                rs.getString("state"));
  }

  List<ScheduleRow> ofSequence(UUID tenantId, UUID sequenceId) {
    return jdbc.sql(
            """
            select %s from schedule_trigger where tenant_id = :tenantId and sequence_id = :sequenceId
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .query(mapper)
        .list();
  }

  List<ScheduleRow> running() {
    return jdbc.sql(
            """
            select %s from schedule_trigger where state = 'running'
            """
                .formatted(COLUMNS))
        .query(mapper)
        .list();
  }

  /**
   * Asks for the schedule to be started again (its workflow was lost).
   *
   * @return the row as restarted; empty when it was no longer running on the version read (a change
   *     of its flow's came first, and applied a version of its own)
   */
  Optional<ScheduleRow> restart(ScheduleRow row) {
    return jdbc.sql(
            """
            update schedule_trigger set state = 'starting', updated_at = now()
            where tenant_id = :tenantId and node_id = :nodeId and state = 'running'
              and canvas_version = :version
            returning %s
            """
                .formatted(COLUMNS))
        .param("tenantId", row.tenantId())
        .param("nodeId", row.nodeId())
        .param("version", row.canvasVersion())
        .query(mapper)
        .optional();
  }

  /** Rows whose workflow has not matched them for {@code olderThan}, oldest change first. */
  List<ScheduleRow> pending(Duration olderThan, int limit) {
    return jdbc.sql(
            """
            select %s from schedule_trigger
            where state <> 'running' and updated_at < now() - make_interval(secs => :age)
            order by updated_at limit :limit
            """
                .formatted(COLUMNS))
        .param("age", olderThan.toMillis() / 1000.0)
        .param("limit", limit)
        .query(mapper)
        .list();
  }

  /** The schedule should run on this version and config: (re)start it. */
  void wantRunning(UUID tenantId, String nodeId, UUID sequenceId, int version, Object config) {
    jdbc.sql(
            """
            insert into schedule_trigger (tenant_id, node_id, sequence_id, canvas_version, config,
                                          state)
            values (:tenantId, :nodeId, :sequenceId, :version, :config::jsonb, 'starting')
            on conflict (tenant_id, node_id) do update set
                sequence_id = excluded.sequence_id, canvas_version = excluded.canvas_version,
                config = excluded.config, state = 'starting', updated_at = now()
            """)
        .param("tenantId", tenantId)
        .param("nodeId", nodeId)
        .param("sequenceId", sequenceId)
        .param("version", version)
        .param("config", json.write(config))
        .update();
  }

  void wantStopped(UUID tenantId, String nodeId) {
    jdbc.sql(
            """
            update schedule_trigger set state = 'stopping', updated_at = now()
            where tenant_id = :tenantId and node_id = :nodeId
            """)
        .param("tenantId", tenantId)
        .param("nodeId", nodeId)
        .update();
  }

  /** Marks the row running if it still asks for what was started (no newer change came in). */
  void started(ScheduleRow row) {
    jdbc.sql(
            """
            update schedule_trigger set state = 'running'
            where tenant_id = :tenantId and node_id = :nodeId and state = 'starting'
              and canvas_version = :version
            """)
        .param("tenantId", row.tenantId())
        .param("nodeId", row.nodeId())
        .param("version", row.canvasVersion())
        .update();
  }

  /**
   * Takes a pending row for one reconcile: only if it is still pending as read, and not taken by
   * another api-server's reconcile meanwhile, which would apply it twice. The row is held (its time
   * set {@code hold} ahead) while the taker applies it, and a row that Temporal refused stays
   * behind the others for that long.
   *
   * @return the row as taken; empty when another took it or a change replaced it
   */
  Optional<ScheduleRow> take(ScheduleRow row, Duration olderThan, Duration hold) {
    return jdbc.sql(
            """
            update schedule_trigger set updated_at = now() + make_interval(secs => :hold)
            where tenant_id = :tenantId and node_id = :nodeId and state = :state
              and canvas_version = :version
              and updated_at < now() - make_interval(secs => :age)
            returning %s
            """
                .formatted(COLUMNS))
        .param("tenantId", row.tenantId())
        .param("nodeId", row.nodeId())
        .param("state", row.state())
        .param("version", row.canvasVersion())
        .param("age", olderThan.toMillis() / 1000.0)
        .param("hold", hold.toMillis() / 1000.0)
        .query(mapper)
        .optional();
  }

  /**
   * Gives a taken row back when Temporal could not be reached: pending again for the next
   * reconcile, unless a change replaced it meanwhile. Every change sets the row's time to its own
   * {@code now()}, which {@link #take} set ahead: a row whose time is still ahead is unchanged
   * since it was taken, even by a change that left its state and version as they were (a pause and
   * an activation within the hold).
   */
  void giveBack(ScheduleRow row, Duration olderThan) {
    jdbc.sql(
            """
            update schedule_trigger set updated_at = now() - make_interval(secs => :age)
            where tenant_id = :tenantId and node_id = :nodeId and state = :state
              and canvas_version = :version and updated_at > now()
            """)
        .param("tenantId", row.tenantId())
        .param("nodeId", row.nodeId())
        .param("state", row.state())
        .param("version", row.canvasVersion())
        .param("age", olderThan.toMillis() / 1000.0)
        .update();
  }

  void stopped(ScheduleRow row) {
    jdbc.sql(
            """
            delete from schedule_trigger
            where tenant_id = :tenantId and node_id = :nodeId and state = 'stopping'
            """)
        .param("tenantId", row.tenantId())
        .param("nodeId", row.nodeId())
        .update();
  }
}
