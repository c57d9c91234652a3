package com.crmflow.api.runmove;

import com.crmflow.api.json.JsonColumns;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The move jobs, the pages of waiting runs they go through, and where a flow's runs wait. */
@Repository
class RunMoveRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, sequence_id, to_version, from_versions, mapping, recompute_delays,
      api_key_id, status, runs, skipped, after_run, created_at, finished_at\
      """;

  private final JdbcClient jdbc;
  private final JsonColumns json;

  RunMoveRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  private RunMoveJob job(ResultSet rs, int row) throws SQLException {
    return new RunMoveJob(
        rs.getObject("id", UUID.class),
        rs.getObject("tenant_id", UUID.class),
        rs.getObject("sequence_id", UUID.class),
        rs.getInt("to_version"),
        versions(rs.getArray("from_versions")),
        strings(json.readMap(rs.getString("mapping"))),
        rs.getBoolean("recompute_delays"),
        rs.getObject("api_key_id", UUID.class),
        rs.getString("status"),
        rs.getLong("runs"),
        counts(json.readMap(rs.getString("skipped"))),
        rs.getObject("after_run", UUID.class),
        rs.getObject("created_at", java.time.OffsetDateTime.class),
        rs.getObject("finished_at", java.time.OffsetDateTime.class));
  }

  private static Map<String, String> strings(Map<String, Object> map) {
    Map<String, String> strings = new LinkedHashMap<>();
    map.forEach((key, value) -> strings.put(key, String.valueOf(value)));
    return strings;
  }

  private static Map<String, Long> counts(Map<String, Object> map) {
    Map<String, Long> counts = new LinkedHashMap<>();
    map.forEach((key, value) -> counts.put(key, ((Number) value).longValue()));
    return counts;
  }

  private static List<Integer> versions(Array array) throws SQLException {
    return array == null ? List.of() : Arrays.asList((Integer[]) array.getArray());
  }

  /** Where the flow's waiting runs of those versions stand: one row per version and node. */
  record Standing(int version, String nodeId, String nodeType, boolean held, long runs) {}

  /**
   * The flow's runs in progress of those versions, by version and the node each of their running
   * entries is at (node null: a run with no running entry, between nodes). A run with two waiting
   * branches counts at each. Read from the run records and node log, not from the workflows.
   */
  List<Standing> standing(UUID tenantId, UUID sequenceId, List<Integer> versions) {
    return jdbc.sql(
            """
            select r.canvas_version, l.node_id, l.node_type,
                   (l.output -> 'held') is not null as held, count(distinct r.id) as runs
            from automation_run r
            left join run_node_log l on l.run_id = r.id and l.status = 'running'
            where r.tenant_id = :tenantId and r.sequence_id = :sequenceId
              and r.status = 'running' and not r.test
              and r.canvas_version = any(:versions)
            group by 1, 2, 3, 4
            order by 1, 2
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("versions", versions.toArray(Integer[]::new))
        .query(
            (rs, row) ->
                new Standing(
                    rs.getInt(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getBoolean(4),
                    rs.getLong(5)))
        .list();
  }

  /** The flow's runs in progress of those versions. */
  long waiting(UUID tenantId, UUID sequenceId, List<Integer> versions, UUID after) {
    return jdbc.sql(
            """
            select count(*) from automation_run
            where tenant_id = :tenantId and sequence_id = :sequenceId and status = 'running'
              and not test and canvas_version = any(:versions) and id > :after
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("versions", versions.toArray(Integer[]::new))
        .param("after", after == null ? new UUID(0, 0) : after)
        .query(Long.class)
        .single();
  }

  /** The move under way for the same request, if any. */
  Optional<RunMoveJob> running(UUID tenantId, UUID sequenceId, String request) {
    return jdbc.sql(
            "select %s from run_move_job where tenant_id = :tenantId and sequence_id = :sequenceId"
                    .formatted(COLUMNS)
                + " and request = :request and status = 'running'")
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("request", request)
        .query(this::job)
        .optional();
  }

  /** Stores the move; empty when the same request is under way already (a race of two asks). */
  Optional<RunMoveJob> insert(
      UUID tenantId,
      UUID sequenceId,
      int toVersion,
      List<Integer> fromVersions,
      Map<String, String> mapping,
      boolean recomputeDelays,
      UUID apiKeyId,
      String request,
      long runs) {
    return jdbc.sql(
            """
            insert into run_move_job (id, tenant_id, sequence_id, to_version, from_versions,
                                      mapping, recompute_delays, api_key_id, request, runs)
            values (:id, :tenantId, :sequenceId, :toVersion, :fromVersions,
                    cast(:mapping as jsonb), :recompute, :apiKeyId, :request, :runs)
            on conflict (tenant_id, sequence_id, md5(request)) where status = 'running'
            do nothing
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("toVersion", toVersion)
        .param("fromVersions", fromVersions.toArray(Integer[]::new))
        .param("mapping", json.write(mapping))
        .param("recompute", recomputeDelays)
        .param("apiKeyId", apiKeyId)
        .param("request", request)
        .param("runs", runs)
        .query(this::job)
        .optional();
  }

  Optional<RunMoveJob> find(UUID tenantId, UUID sequenceId, UUID moveId) {
    return jdbc.sql(
            "select %s from run_move_job where tenant_id = :tenantId and sequence_id = :sequenceId"
                    .formatted(COLUMNS)
                + " and id = :id")
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("id", moveId)
        .query(this::job)
        .optional();
  }

  /** The runs the move moved: their records name it (written with each run's move). */
  long moved(UUID moveId) {
    return jdbc.sql("select count(*) from automation_run where moved_by = :id")
        .param("id", moveId)
        .query(Long.class)
        .single();
  }

  /** Stops the move: no page starts after this; true when it was under way. */
  boolean stop(UUID moveId) {
    return jdbc.sql(
                """
            update run_move_job set status = 'stopped', leased_by = null, lease_until = null,
                updated_at = now(), finished_at = now()
            where id = :id and status = 'running'
            """)
            .param("id", moveId)
            .update()
        == 1;
  }

  /**
   * Takes the running move that waited longest for its turn (its last page the oldest) and that no
   * live api-server holds, and holds it until {@code lease} from now: the moves of several flows
   * and tenants take turns, a page each.
   */
  Optional<RunMoveJob> lease(String holder, Duration lease) {
    return jdbc.sql(
            """
            update run_move_job set leased_by = :holder,
                lease_until = now() + make_interval(secs => :lease)
            where id = (
                select id from run_move_job
                where status = 'running'
                  and (lease_until is null or lease_until < now() or leased_by = :holder)
                order by updated_at limit 1
                for update skip locked)
            returning %s
            """
                .formatted(COLUMNS))
        .param("holder", holder)
        .param("lease", lease.toSeconds())
        .query(this::job)
        .optional();
  }

  /** A waiting run of the move's versions: its id and workflow id. */
  record RunToMove(UUID id, String workflowId, boolean workflowStarted) {}

  /**
   * The next page of the runs to move, in id order after the job's cursor: the runs of its
   * versions, and those whose record it moved already. A record moves in the transaction of the
   * run's recording, inside a workflow task; if the process dies before that task completes, the
   * record names the move while the workflow never took it, and the page, asked again, asks that
   * run again (a run that did move answers that it runs the version already).
   */
  List<RunToMove> page(RunMoveJob job, int limit) {
    return jdbc.sql(
            """
            select id, workflow_id, workflow_started from automation_run
            where tenant_id = :tenantId and sequence_id = :sequenceId and status = 'running'
              and not test and (canvas_version = any(:versions) or moved_by = :jobId)
              and id > :after
            order by id limit :limit
            """)
        .param("jobId", job.id())
        .param("tenantId", job.tenantId())
        .param("sequenceId", job.sequenceId())
        .param("versions", job.fromVersions().toArray(Integer[]::new))
        .param("after", job.afterRun() == null ? new UUID(0, 0) : job.afterRun())
        .param("limit", limit)
        .query(
            (rs, row) ->
                new RunToMove(
                    rs.getObject("id", UUID.class),
                    rs.getString("workflow_id"),
                    rs.getBoolean("workflow_started")))
        .list();
  }

  /**
   * Records a page done: its cursor and the runs it could not move, by reason; true while the
   * holder holds the job and it is under way.
   */
  boolean pageDone(RunMoveJob job, String holder, UUID lastRun, Map<String, Long> skipped) {
    Map<String, Long> all = new LinkedHashMap<>(job.skipped());
    skipped.forEach((reason, runs) -> all.merge(reason, runs, Long::sum));
    return jdbc.sql(
                """
            update run_move_job set after_run = :last, skipped = cast(:skipped as jsonb),
                updated_at = now()
            where id = :id and leased_by = :holder and status = 'running'
            """)
            .param("id", job.id())
            .param("holder", holder)
            .param("last", lastRun)
            .param("skipped", json.write(all))
            .update()
        == 1;
  }

  /** Every run was asked. */
  void complete(UUID jobId) {
    jdbc.sql(
            """
            update run_move_job set status = 'completed', leased_by = null, lease_until = null,
                updated_at = now(), finished_at = now()
            where id = :id and status = 'running'
            """)
        .param("id", jobId)
        .update();
  }
}
