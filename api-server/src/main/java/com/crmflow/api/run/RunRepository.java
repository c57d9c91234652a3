package com.crmflow.api.run;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.workflow.run.NodeLogEntry;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class RunRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, sequence_id, canvas_version, trigger_node_id, start_node_id,
      trigger_payload, status, error, workflow_id, retry_of, enrollment_id, started_at,
      completed_at, created_at
      """;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<AutomationRun> mapper;

  RunRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new AutomationRun(
                rs.getObject("id", UUID.class),
                rs.getObject("tenant_id", UUID.class),
                rs.getObject("sequence_id", UUID.class),
                rs.getInt("canvas_version"),
                rs.getString("trigger_node_id"),
                rs.getString("start_node_id"),
                json.mapper().readValue(rs.getString("trigger_payload"), Object.class),
                rs.getString("status"),
                null,
                rs.getString("error"),
                rs.getString("workflow_id"),
                rs.getObject("retry_of", UUID.class),
                rs.getObject("enrollment_id", UUID.class),
                rs.getObject("started_at", OffsetDateTime.class),
                rs.getObject("completed_at", OffsetDateTime.class),
                rs.getObject("created_at", OffsetDateTime.class));
  }

  /**
   * A new run, status running, not yet handed to Temporal.
   *
   * @param workflowId null for {@code run-<id>}; enrollments name their workflow otherwise
   */
  public record NewRun(
      UUID id,
      UUID tenantId,
      UUID sequenceId,
      int canvasVersion,
      String triggerNodeId,
      String startNodeId,
      Object triggerPayload,
      String idempotencyKey,
      UUID retryOf,
      String workflowId,
      UUID enrollmentId) {

    public NewRun(
        UUID id,
        UUID tenantId,
        UUID sequenceId,
        int canvasVersion,
        String triggerNodeId,
        String startNodeId,
        Object triggerPayload,
        String idempotencyKey,
        UUID retryOf) {
      this(
          id,
          tenantId,
          sequenceId,
          canvasVersion,
          triggerNodeId,
          startNodeId,
          triggerPayload,
          idempotencyKey,
          retryOf,
          null,
          null);
    }
  }

  private static final String INSERT_RUN =
      """
      insert into automation_run (id, tenant_id, sequence_id, canvas_version,
          trigger_node_id, start_node_id, trigger_payload, workflow_id, idempotency_key,
          retry_of, enrollment_id)
      values (:id, :tenantId, :sequenceId, :version, :triggerNodeId, :startNodeId,
              :payload::jsonb, :workflowId, :idempotencyKey, :retryOf, :enrollmentId)
      on conflict (tenant_id, trigger_node_id, idempotency_key)
          where idempotency_key is not null do nothing
      """;

  private static final String INSERT_RUN_RETURNING = INSERT_RUN + "returning " + COLUMNS;

  /** The run and its trigger's log entry (seq 1, completed at acceptance) in one statement. */
  private static final String INSERT_ACCEPTED_RUN =
      """
      with inserted as (%s returning *),
      logged as (
          insert into run_node_log (run_id, tenant_id, seq, node_id, node_type,
                                    status, started_at, completed_at, output)
          select id, tenant_id, 1, trigger_node_id, :triggerType, 'completed',
                 :acceptedAt, :acceptedAt, '{}'::jsonb
          from inserted)
      select %s from inserted
      """
          .formatted(INSERT_RUN, COLUMNS);

  /** Inserts the run; empty when a run with the same idempotency key exists already. */
  public Optional<AutomationRun> insert(NewRun run) {
    return bind(jdbc.sql(INSERT_RUN_RETURNING), run).query(mapper).optional();
  }

  /**
   * Inserts the run as {@link #insert} does and, in the same statement, the log entry of its
   * trigger node (seq 1, completed at {@code acceptedAt}): the public trigger runs that node when
   * it accepts the call. The workflow then does not record it again (RunInput#triggerLogged), which
   * spares a short run one recording.
   */
  Optional<AutomationRun> insertAccepted(NewRun run, String triggerType, String acceptedAt) {
    return bind(
            jdbc.sql(INSERT_ACCEPTED_RUN)
                .param("triggerType", triggerType)
                .param("acceptedAt", acceptedAt),
            run)
        .query(mapper)
        .optional();
  }

  /** Whether the run's first log entry is its start node's (written with the run, or by it). */
  boolean startNodeLogged(UUID runId) {
    return jdbc.sql(
            """
            select exists (select 1 from run_node_log l join automation_run r on r.id = l.run_id
                           where l.run_id = :runId and l.seq = 1 and l.node_id = r.start_node_id)
            """)
        .param("runId", runId)
        .query(Boolean.class)
        .single();
  }

  private JdbcClient.StatementSpec bind(JdbcClient.StatementSpec statement, NewRun run) {
    return statement
        .param("id", run.id())
        .param("tenantId", run.tenantId())
        .param("sequenceId", run.sequenceId())
        .param("version", run.canvasVersion())
        .param("triggerNodeId", run.triggerNodeId())
        .param("startNodeId", run.startNodeId())
        .param("payload", json.write(run.triggerPayload()))
        .param(
            "workflowId",
            run.workflowId() != null
                ? run.workflowId()
                : com.crmflow.workflow.run.AutomationRunWorkflow.workflowId(run.id().toString()))
        .param("idempotencyKey", run.idempotencyKey())
        .param("retryOf", run.retryOf())
        .param("enrollmentId", run.enrollmentId());
  }

  Optional<AutomationRun> findByIdempotencyKey(UUID tenantId, String triggerNodeId, String key) {
    return jdbc.sql(
            """
            select %s from automation_run
            where tenant_id = :tenantId and trigger_node_id = :nodeId and idempotency_key = :key
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("nodeId", triggerNodeId)
        .param("key", key)
        .query(mapper)
        .optional();
  }

  public Optional<AutomationRun> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from automation_run where tenant_id = :tenantId and id = :id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  Optional<AutomationRun> findAnyTenant(UUID id) {
    return jdbc.sql("select %s from automation_run where id = :id".formatted(COLUMNS))
        .param("id", id)
        .query(mapper)
        .optional();
  }

  List<AutomationRun> list(UUID tenantId, UUID sequenceId, String status, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from automation_run
            where tenant_id = :tenantId
              and (cast(:sequenceId as uuid) is null or sequence_id = :sequenceId)
              and (cast(:status as text) is null or status = :status)
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }

  long count(UUID tenantId, UUID sequenceId, String status) {
    return jdbc.sql(
            """
            select count(*) from automation_run
            where tenant_id = :tenantId
              and (cast(:sequenceId as uuid) is null or sequence_id = :sequenceId)
              and (cast(:status as text) is null or status = :status)
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .query(Long.class)
        .single();
  }

  void markWorkflowStarted(UUID runId) {
    jdbc.sql("update automation_run set workflow_started = true where id = :id")
        .param("id", runId)
        .update();
  }

  /** Accepted runs whose workflow has not started, oldest first. */
  List<UUID> unstarted(int olderThanSeconds, int limit) {
    return jdbc.sql(
            """
            select id from automation_run
            where not workflow_started and status = 'running'
              and created_at < now() - make_interval(secs => :age)
            order by created_at limit :limit
            """)
        .param("age", olderThanSeconds)
        .param("limit", limit)
        .query(UUID.class)
        .list();
  }

  void upsertNodeLog(UUID runId, NodeLogEntry entry) {
    jdbc.sql(
            """
            insert into run_node_log (run_id, tenant_id, seq, node_id, node_type, status,
                                      started_at, completed_at, output, error)
            select :runId, tenant_id, :seq, :nodeId, :nodeType, :status, :startedAt,
                   :completedAt, :output::jsonb, :error
            from automation_run where id = :runId
            on conflict (run_id, seq) do update set
                status = excluded.status, completed_at = excluded.completed_at,
                output = excluded.output, error = excluded.error
            where excluded.status <> 'running'
            """)
        .param("runId", runId)
        .param("seq", entry.seq())
        .param("nodeId", entry.nodeId())
        .param("nodeType", entry.nodeType())
        .param("status", entry.status())
        .param("startedAt", entry.startedAt())
        .param("completedAt", entry.completedAt())
        .param("output", json.write(entry.output()))
        .param("error", entry.error())
        .update();
  }

  /** Ends a running run; a run that already ended (e.g. cancelled) keeps its status. */
  boolean finish(UUID runId, String status, String error) {
    return jdbc.sql(
                """
                update automation_run set status = :status, error = :error, completed_at = now()
                where id = :id and status = 'running'
                """)
            .param("id", runId)
            .param("status", status)
            .param("error", error)
            .update()
        == 1;
  }

  /** The node log in execution order, in the spec's shape. */
  List<Map<String, Object>> nodeLog(UUID runId) {
    return jdbc.sql(
            """
            select seq, node_id, node_type, status, started_at, completed_at, output, error
            from run_node_log where run_id = :runId order by seq
            """)
        .param("runId", runId)
        .query(
            (rs, row) -> {
              Map<String, Object> entry = new LinkedHashMap<>();
              entry.put("nodeId", rs.getString("node_id"));
              entry.put("nodeType", rs.getString("node_type"));
              entry.put("status", rs.getString("status"));
              entry.put("startedAt", rs.getString("started_at"));
              entry.put("completedAt", rs.getString("completed_at"));
              if (rs.getString("error") != null) {
                entry.put("error", rs.getString("error"));
              } else {
                entry.put("output", json.readMap(rs.getString("output")));
              }
              return entry;
            })
        .list();
  }
}
