package com.crmflow.api.run;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.shared.text.NulCharacters;
import com.crmflow.shared.tracing.CurrentTrace;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunResult;
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
      trigger_payload, cause, status, error, workflow_id, retry_of, enrollment_id, started_at,
      completed_at, created_at, trace_id, test, exit, moved_from_versions
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
                rs.getString("cause") == null ? null : json.readMap(rs.getString("cause")),
                rs.getString("status"),
                null,
                rs.getString("error"),
                rs.getString("workflow_id"),
                rs.getObject("retry_of", UUID.class),
                rs.getObject("enrollment_id", UUID.class),
                rs.getObject("started_at", OffsetDateTime.class),
                rs.getObject("completed_at", OffsetDateTime.class),
                rs.getObject("created_at", OffsetDateTime.class),
                rs.getString("trace_id"),
                rs.getBoolean("test"),
                rs.getString("exit") == null ? null : json.readMap(rs.getString("exit")),
                versions(rs.getArray("moved_from_versions")));
  }

  private static List<Integer> versions(java.sql.Array array) throws java.sql.SQLException {
    return array == null ? List.of() : List.of((Integer[]) array.getArray());
  }

  /**
   * A new run, status running, not yet handed to Temporal.
   *
   * @param workflowId null for {@code run-<id>}; enrollments name their workflow otherwise
   * @param cause the run of the tenant's whose write or call started it ({@code cause}), in its
   *     stored form; null when none did
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
      UUID enrollmentId,
      Map<String, Object> cause) {

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
          null,
          null);
    }

    /** The same run, started by that cause. */
    public NewRun causedBy(Map<String, Object> startedBy) {
      return new NewRun(
          id,
          tenantId,
          sequenceId,
          canvasVersion,
          triggerNodeId,
          startNodeId,
          triggerPayload,
          idempotencyKey,
          retryOf,
          workflowId,
          enrollmentId,
          startedBy);
    }
  }

  private static final String INSERT_INTO_RUN =
      """
      insert into automation_run (id, tenant_id, sequence_id, canvas_version,
          trigger_node_id, start_node_id, trigger_payload, workflow_id, idempotency_key,
          retry_of, enrollment_id, trace_id, cause)
      """;

  private static final String NEW_RUN_VALUES =
      """
      :id, :tenantId, :sequenceId, :version, :triggerNodeId, :startNodeId,
      :payload::jsonb, :workflowId, :idempotencyKey, :retryOf, :enrollmentId, :traceId,
      :cause::jsonb
      """;

  private static final String UNLESS_KEY_USED =
      """
      on conflict (tenant_id, trigger_node_id, idempotency_key)
          where idempotency_key is not null do nothing
      """;

  private static final String INSERT_RUN_RETURNING =
      INSERT_INTO_RUN
          + "values ("
          + NEW_RUN_VALUES
          + ")"
          + UNLESS_KEY_USED
          + "returning "
          + COLUMNS;

  /**
   * The run and its trigger's log entry (seq 1, completed at acceptance) in one statement, if the
   * trigger node still belongs to the run's automation, which is active and at the run's canvas
   * version: what the caller checked the call against is what is stored at this moment. A run of
   * the same idempotency key committed before the statement began is returned instead, and nothing
   * is inserted: a repeated delivery is found without a lookup of its own before the insert.
   */
  private static final String INSERT_ACCEPTED_RUN =
      """
      with earlier as (
          select * from automation_run
          where tenant_id = :tenantId and trigger_node_id = :triggerNodeId
            and idempotency_key = :idempotencyKey),
      target as (
          select from sequence s
          join trigger_node t on t.tenant_id = s.tenant_id and t.sequence_id = s.id
          where s.tenant_id = :tenantId and s.id = :sequenceId and t.node_id = :triggerNodeId
            and t.node_type = :triggerType and s.status = 'active'
            and s.current_version = :version
            and not exists (select from earlier)),
      inserted as (%s select %s from target %s returning *),
      logged as (
          insert into run_node_log (run_id, tenant_id, seq, node_id, node_type,
                                    status, started_at, completed_at, output, span_id)
          select id, tenant_id, 1, trigger_node_id, :triggerType, 'completed',
                 :acceptedAt, :acceptedAt, '{}'::jsonb, :spanId
          from inserted)
      select %s from inserted
      union all
      select %s from earlier
      """
          .formatted(INSERT_INTO_RUN, NEW_RUN_VALUES, UNLESS_KEY_USED, COLUMNS, COLUMNS);

  /** Inserts a test run (see {@link AutomationRun#test}). */
  AutomationRun insertTest(NewRun run) {
    return bind(
            jdbc.sql(
                INSERT_INTO_RUN.replace("cause)", "cause, test)")
                    + "values ("
                    + NEW_RUN_VALUES
                    + ", true) returning "
                    + COLUMNS),
            run)
        .query(mapper)
        .single();
  }

  /** Inserts the run; empty when a run with the same idempotency key exists already. */
  Optional<AutomationRun> insert(NewRun run) {
    return bind(jdbc.sql(INSERT_RUN_RETURNING), run).query(mapper).optional();
  }

  /**
   * Inserts the run as {@link #insert} does and, in the same statement, the log entry of its
   * trigger node (seq 1, completed at {@code acceptedAt}): the public trigger runs that node when
   * it accepts the call. The workflow then does not record it again (RunInput#triggerLogged), which
   * spares a short run one recording.
   *
   * @return the run inserted; or the earlier run of the same idempotency key (another id),
   *     inserting nothing; empty when a run with that key was committed while the statement ran, or
   *     when the trigger node ({@code triggerType}) no longer leads to the run's sequence, active
   *     and at the run's canvas version
   */
  Optional<AutomationRun> insertAccepted(NewRun run, String triggerType, String acceptedAt) {
    return bind(
            jdbc.sql(INSERT_ACCEPTED_RUN)
                .param("triggerType", triggerType)
                .param("acceptedAt", acceptedAt)
                // the trigger node ran in the request that accepted the run
                .param("spanId", CurrentTrace.spanId().orElse(null)),
            run)
        .query(mapper)
        .optional();
  }

  private JdbcClient.StatementSpec bind(JdbcClient.StatementSpec statement, NewRun run) {
    return statement
        .param("id", run.id())
        .param("tenantId", run.tenantId())
        .param("sequenceId", run.sequenceId())
        .param("version", run.canvasVersion())
        .param("triggerNodeId", run.triggerNodeId())
        .param("startNodeId", run.startNodeId())
        // a JSON null body is a payload too: stored as JSON null, not as a missing payload
        .param("payload", json.mapper().writeValueAsString(run.triggerPayload()))
        .param(
            "workflowId",
            run.workflowId() != null
                ? run.workflowId()
                : com.crmflow.workflow.contract.AutomationRunWorkflow.workflowId(
                    run.id().toString()))
        .param("idempotencyKey", run.idempotencyKey())
        .param("retryOf", run.retryOf())
        .param("enrollmentId", run.enrollmentId())
        .param("cause", run.cause() == null ? null : json.write(run.cause()))
        // the trace the run is accepted in, which its workflow start continues
        .param("traceId", CurrentTrace.traceId().orElse(null));
  }

  public Optional<AutomationRun> findByIdempotencyKey(
      UUID tenantId, String triggerNodeId, String key) {
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

  /**
   * @param exit the reason the runs exited before their last node (goal), or null: any run
   * @param test true: the test runs only; false: every other run
   */
  List<AutomationRun> list(
      UUID tenantId,
      UUID sequenceId,
      String status,
      String exit,
      boolean test,
      int limit,
      int offset) {
    return jdbc.sql(
            """
            select %s from automation_run
            where tenant_id = :tenantId
              and (cast(:sequenceId as uuid) is null or sequence_id = :sequenceId)
              and (cast(:status as text) is null or status = :status)
              and (cast(:exit as text) is null or exit ->> 'reason' = :exit)
              and test = :test
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .param("exit", exit)
        .param("test", test)
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }

  long count(UUID tenantId, UUID sequenceId, String status, String exit, boolean test) {
    return jdbc.sql(
            """
            select count(*) from automation_run
            where tenant_id = :tenantId
              and (cast(:sequenceId as uuid) is null or sequence_id = :sequenceId)
              and (cast(:status as text) is null or status = :status)
              and (cast(:exit as text) is null or exit ->> 'reason' = :exit)
              and test = :test
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .param("exit", exit)
        .param("test", test)
        .query(Long.class)
        .single();
  }

  /**
   * Marks the run as one Temporal has: the reconciler leaves it alone. The workflow's own first
   * recording does this too ({@link #recordNodes}, {@link #end}), so a start that succeeds needs no
   * write of its own.
   */
  void markWorkflowStarted(UUID runId) {
    jdbc.sql("update automation_run set workflow_started = true where id = :id")
        .param("id", runId)
        .update();
  }

  /** Whether the run was cancelled; false for an unknown id. */
  boolean isCancelled(UUID runId) {
    return jdbc.sql("select status = 'cancelled' from automation_run where id = :id")
        .param("id", runId)
        .query(Boolean.class)
        .optional()
        .orElse(false);
  }

  /**
   * Running runs not known to Temporal yet (neither a recording from their workflow nor a start
   * that found it existing), oldest first.
   */
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

  /**
   * Upserts log entries of {@code :runId}, given as a JSON array in {@code :entries}: a retried
   * recording replaces instead of duplicating, and a running entry never replaces a finished one
   * (batches that reach the database out of order cannot undo progress).
   */
  private static final String LOG_ENTRIES =
      """
      logged as (
          insert into run_node_log (run_id, tenant_id, seq, node_id, node_type, status,
                                    started_at, completed_at, output, error, span_id, input)
          select r.id, r.tenant_id, e.seq, e.node_id, e.node_type, e.status, e.started_at,
                 e.completed_at, e.output, e.error, e.span_id, e.input
          from jsonb_to_recordset(cast(:entries as jsonb)) as e(
                   seq int, node_id text, node_type text, status text, started_at text,
                   completed_at text, output jsonb, error text, span_id text, input jsonb)
          join automation_run r on r.id = :runId
          on conflict (run_id, seq) do update set
              status = excluded.status, completed_at = excluded.completed_at,
              output = excluded.output, error = excluded.error,
              span_id = coalesce(excluded.span_id, run_node_log.span_id),
              input = coalesce(excluded.input, run_node_log.input)
          where excluded.status <> 'running')
      """;

  private static final String RECORD_NODES =
      "with "
          + LOG_ENTRIES
          + """
          update automation_run set workflow_started = true
          where id = :runId and not workflow_started
          """;

  private static final String END_RUN =
      "with "
          + LOG_ENTRIES
          + """
          , ended as (
              update automation_run
              set status = :status, error = :error, completed_at = now(), workflow_started = true,
                  exit = cast(:exit as jsonb)
              where id = :runId and status = 'running'
              returning id, enrollment_id, exit is not null as ended_early)
          select id, enrollment_id, ended_early from ended
          """;

  /**
   * Writes log entries in one statement. The run's workflow is evidently running, so the run is
   * marked started too (see {@link #markWorkflowStarted}).
   */
  void recordNodes(UUID runId, List<NodeLogEntry> entries) {
    jdbc.sql(RECORD_NODES).param("runId", runId).param("entries", entriesJson(entries)).update();
  }

  /**
   * Ends the log entries of an ended run that are still running (a delay that another branch's
   * failure or a cancel cut short, a node its workflow was stopped in), so that the log of an ended
   * run shows nothing running: {@code skipped}, with {@code why} in the output (which keeps what it
   * had, a delay's until), or {@code failed}, with {@code why} as the error.
   */
  void endUnfinishedNodes(UUID runId, String status, String why) {
    jdbc.sql(
            """
            update run_node_log
            set status = :status,
                completed_at = to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                output =
                    case when :status = 'skipped'
                         then coalesce(output, cast('{}' as jsonb)) || jsonb_build_object('skipped', :why)
                    end,
                error = case when :status = 'failed' then :why end
            where run_id = :runId and status = 'running'
            """)
        .param("runId", runId)
        .param("status", status)
        .param("why", NulCharacters.replaced(why))
        .update();
  }

  /**
   * A run that {@link #end} ended, with what its listeners need to know.
   *
   * @param endedEarly it ended before its last node with an exit (its goal met), a node cut short
   */
  public record EndedRun(UUID id, UUID enrollmentId, boolean endedEarly) {}

  /**
   * Writes the last log entries and ends a running run, in one statement; a run that already ended
   * (e.g. cancelled) keeps its status and the result is empty.
   */
  Optional<EndedRun> end(
      UUID runId,
      List<NodeLogEntry> entries,
      String status,
      String error,
      Map<String, Object> exit) {
    return jdbc.sql(END_RUN)
        .param("exit", exit == null ? null : json.write(exit))
        .param("runId", runId)
        .param("entries", entriesJson(entries))
        .param("status", status)
        .param("error", NulCharacters.replaced(error)) // it may quote a receiver's answer
        .query(EndedRun.class)
        .optional();
  }

  /**
   * One entry per seq, the latest unless it is a running entry after a finished one: the statement
   * can change a row only once (a batch that was not written travels again with later entries).
   */
  private String entriesJson(List<NodeLogEntry> entries) {
    Map<Integer, NodeLogEntry> bySeq = new LinkedHashMap<>();
    for (NodeLogEntry entry : entries) {
      bySeq.merge(
          entry.seq(),
          entry,
          (earlier, later) -> RunResult.RUNNING.equals(later.status()) ? earlier : later);
    }
    return json.write(bySeq.values());
  }

  /**
   * The spec's shape: {nodeId, nodeType, status, startedAt, completedAt, output | error}, spanId
   * (the span the node ran in) when it ran in a trace, and input (what it ran with, {@code
   * NodeInput}) when it was logged.
   */
  private static Map<String, Object> specEntry(NodeLogEntry logged) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("nodeId", logged.nodeId());
    entry.put("nodeType", logged.nodeType());
    entry.put("status", logged.status());
    entry.put("startedAt", logged.startedAt());
    entry.put("completedAt", logged.completedAt());
    if (logged.error() != null) {
      entry.put("error", logged.error());
    } else {
      entry.put("output", logged.output());
    }
    if (logged.spanId() != null) {
      entry.put("spanId", logged.spanId());
    }
    if (logged.input() != null) {
      entry.put("input", logged.input());
    }
    return entry;
  }

  /** The nodes each of these runs has an entry for, by run, in the order first reached. */
  Map<UUID, List<String>> nodesReached(UUID tenantId, List<UUID> runIds) {
    Map<UUID, List<String>> reached = new java.util.LinkedHashMap<>();
    runIds.forEach(id -> reached.put(id, new java.util.ArrayList<>()));
    if (runIds.isEmpty()) {
      return reached;
    }
    jdbc.sql(
            """
            select run_id, node_id from run_node_log
            where tenant_id = :tenantId and run_id = any(:runIds)
            group by run_id, node_id
            order by run_id, min(seq)
            """)
        .param("tenantId", tenantId)
        .param("runIds", runIds.toArray(UUID[]::new))
        .query(
            (org.springframework.jdbc.core.RowCallbackHandler)
                rs -> reached.get(rs.getObject("run_id", UUID.class)).add(rs.getString("node_id")));
    return reached;
  }

  /** The node log in execution order, in the spec's shape. */
  List<Map<String, Object>> nodeLog(UUID runId) {
    return loggedNodes(runId).stream().map(RunRepository::specEntry).toList();
  }

  /** The node log in execution order, as stored. */
  List<NodeLogEntry> loggedNodes(UUID runId) {
    return jdbc.sql(
            """
            select seq, node_id, node_type, status, started_at, completed_at, output, error,
                   span_id, input
            from run_node_log where run_id = :runId order by seq
            """)
        .param("runId", runId)
        .query(
            (rs, row) ->
                new NodeLogEntry(
                    rs.getInt("seq"),
                    rs.getString("node_id"),
                    rs.getString("node_type"),
                    rs.getString("status"),
                    rs.getString("started_at"),
                    rs.getString("completed_at"),
                    rs.getString("error") != null ? null : json.readMap(rs.getString("output")),
                    rs.getString("error"),
                    rs.getString("span_id"),
                    rs.getString("input") == null ? null : json.readMap(rs.getString("input"))))
        .list();
  }

  /** A running run whose workflow Temporal has (or had). */
  record StartedRun(UUID id, String workflowId) {}

  /**
   * Running runs whose workflow started, accepted longer than {@code olderThanSeconds} ago, after
   * {@code afterId} in id order.
   */
  List<StartedRun> runningStartedAfter(UUID afterId, int olderThanSeconds, int limit) {
    return jdbc.sql(
            """
            select id, workflow_id from automation_run
            where status = 'running' and workflow_started and id > :afterId
              and created_at < now() - make_interval(secs => :age)
            order by id limit :limit
            """)
        .param("afterId", afterId)
        .param("age", olderThanSeconds)
        .param("limit", limit)
        .query(StartedRun.class)
        .list();
  }

  /** The run, if it is running, its workflow started, and created longer than that ago. */
  Optional<StartedRun> runningStarted(UUID id, int olderThanSeconds) {
    return jdbc.sql(
            """
            select id, workflow_id from automation_run
            where id = :id and status = 'running' and workflow_started
              and created_at < now() - make_interval(secs => :age)
            """)
        .param("id", id)
        .param("age", olderThanSeconds)
        .query(StartedRun.class)
        .optional();
  }

  /**
   * The run that retries this one, if there is one. Locks this run's row until the transaction
   * ends, so that of two retries of the same run asked for at once, the second sees the first.
   */
  Optional<UUID> lockForRetry(UUID runId) {
    jdbc.sql("select id from automation_run where id = :id for update")
        .param("id", runId)
        .query(UUID.class)
        .optional();
    return jdbc.sql(
            "select id from automation_run where retry_of = :id order by created_at limit 1")
        .param("id", runId)
        .query(UUID.class)
        .optional();
  }
}
