package com.crmflow.api.flow;

import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.recordfield.SqlAssignments;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class SequenceRepository {

  /**
   * step_count: nodes of the latest canvas version that are not triggers; trigger_type: its
   * trigger's type (the trigger registry holds the latest version's); the newest run, through the
   * runs' index by sequence.
   */
  private static final String SELECT =
      """
      select s.id, s.name, s.description, s.status,
             coalesce((select count(*) from canvas_version v, jsonb_array_elements(v.nodes) n
                       where v.sequence_id = s.id and v.version = s.current_version
                         and not (n ->> 'type' = any (:triggerTypes))), 0) as step_count,
             s.builder_mode, s.flow_type, s.current_version, s.activated_by_key_id, s.created_at,
             s.updated_at,
             (select min(t.node_type) from trigger_node t
              where t.tenant_id = s.tenant_id and t.sequence_id = s.id) as trigger_type,
             last_run.created_at as last_run_at, last_run.status as last_run_status
      from sequence s
      left join lateral (
        select r.created_at, r.status from automation_run r
        where r.tenant_id = s.tenant_id and r.sequence_id = s.id and not r.test
        order by r.created_at desc limit 1) last_run on true
      """;

  /** A name that holds the words looked for, as {@link #namePattern} makes them. */
  private static final String NAME_MATCHES =
      """
       (cast(:name as text) is null or s.name ilike :name)
      """;

  private final JdbcClient jdbc;

  /** The types that are no steps: the triggers of the API's node types. */
  private final String[] triggerTypes;

  SequenceRepository(JdbcClient jdbc, NodeTypes nodeTypes) {
    this.jdbc = jdbc;
    this.triggerTypes = nodeTypes.triggerNames().toArray(String[]::new);
  }

  Sequence insert(UUID tenantId, Map<String, Object> fields) {
    UUID id = UUID.randomUUID();
    jdbc.sql(
            "insert into sequence (id, tenant_id%s) values (:id, :tenantId%s)"
                .formatted(
                    SqlAssignments.columns(fields.keySet()),
                    SqlAssignments.values(fields.keySet())))
        .params(fields)
        .param("id", id)
        .param("tenantId", tenantId)
        .update();
    return find(tenantId, id).orElseThrow();
  }

  public Optional<Sequence> find(UUID tenantId, UUID id) {
    return jdbc.sql(SELECT + " where s.tenant_id = :tenantId and s.id = :id")
        .param("triggerTypes", triggerTypes)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Sequence.class)
        .optional();
  }

  /** What a trigger needs to know of a sequence: no step count, no canvas. */
  public record TriggerState(String status, int currentVersion) {}

  public Optional<TriggerState> triggerState(UUID tenantId, UUID id) {
    return jdbc.sql(
            """
            select status, current_version from sequence where tenant_id = :tenantId and id = :id
            """)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(TriggerState.class)
        .optional();
  }

  /** Locks the sequence row until the transaction ends: canvas writes are serialised by it. */
  public Optional<Sequence> lock(UUID tenantId, UUID id) {
    boolean found =
        jdbc.sql("select id from sequence where tenant_id = :tenantId and id = :id for update")
            .param("tenantId", tenantId)
            .param("id", id)
            .query(UUID.class)
            .optional()
            .isPresent();
    return found ? find(tenantId, id) : Optional.empty();
  }

  void update(UUID tenantId, UUID id, Map<String, Object> fields) {
    jdbc.sql(
            """
            update sequence set %s, updated_at = now()
            where tenant_id = :tenantId and id = :id
            """
                .formatted(SqlAssignments.set(fields.keySet())))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .update();
  }

  public void setCurrentVersion(UUID tenantId, UUID id, int version) {
    jdbc.sql(
            """
            update sequence set current_version = :version, updated_at = now()
            where tenant_id = :tenantId and id = :id
            """)
        .param("version", version)
        .param("tenantId", tenantId)
        .param("id", id)
        .update();
  }

  /**
   * @param name words the name holds, or null for any name
   */
  List<Sequence> list(
      UUID tenantId, String status, String flowType, String name, int limit, int offset) {
    return jdbc.sql(
            SELECT
                + """
                 where s.tenant_id = :tenantId
                   and (cast(:status as text) is null or s.status = :status)
                   and (cast(:flowType as text) is null or s.flow_type = :flowType)
                   and """
                + NAME_MATCHES
                + """
                 order by s.created_at desc, s.id desc
                 limit :limit offset :offset
                """)
        .param("triggerTypes", triggerTypes)
        .param("tenantId", tenantId)
        .param("status", status)
        .param("flowType", flowType)
        .param("name", namePattern(name))
        .param("limit", limit)
        .param("offset", offset)
        .query(Sequence.class)
        .list();
  }

  /** How many {@link #list} pages through. */
  int count(UUID tenantId, String status, String flowType, String name) {
    return jdbc.sql(
            """
            select count(*) from sequence s
            where s.tenant_id = :tenantId
              and (cast(:status as text) is null or s.status = :status)
              and (cast(:flowType as text) is null or s.flow_type = :flowType)
              and """
                + NAME_MATCHES)
        .param("tenantId", tenantId)
        .param("status", status)
        .param("flowType", flowType)
        .param("name", namePattern(name))
        .query(Integer.class)
        .single();
  }

  /**
   * The ILIKE pattern of a name that holds these words, case aside ({@code %} and {@code _} as
   * themselves), or null for any name.
   */
  static String namePattern(String words) {
    if (words == null || words.isBlank()) {
      return null;
    }
    String escaped = words.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    return "%" + escaped + "%";
  }

  /**
   * How many runs the sequence has (test runs aside), how many of them are running, and how many
   * test runs are running.
   */
  public record RunCounts(long total, long running, long testsRunning) {}

  RunCounts runCounts(UUID tenantId, UUID id) {
    return jdbc.sql(
            """
            select count(*) filter (where not test) as total,
                   count(*) filter (where status = 'running' and not test) as running,
                   count(*) filter (where status = 'running' and test) as tests_running
            from automation_run where tenant_id = :tenantId and sequence_id = :id
            """)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(RunCounts.class)
        .single();
  }

  long enrollmentCount(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select count(*) from enrollment where tenant_id = :tenantId and sequence_id = :id")
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Long.class)
        .single();
  }

  /** How many schedule rows the sequence still has (a stopped schedule's row goes once stopped). */
  long scheduleCount(UUID tenantId, UUID id) {
    return jdbc.sql(
            """
            select count(*) from schedule_trigger where tenant_id = :tenantId and sequence_id = :id
            """)
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Long.class)
        .single();
  }

  /**
   * Deletes a sequence that nothing else refers to, with its canvas versions, triggers and ended
   * test runs (a test run leaves nothing but its record and node log).
   */
  void delete(UUID tenantId, UUID id) {
    jdbc.sql(
            """
            delete from run_node_log where run_id in (
                select id from automation_run
                where tenant_id = :tenantId and sequence_id = :id and test)
            """)
        .param("tenantId", tenantId)
        .param("id", id)
        .update();
    jdbc.sql(
            "delete from automation_run where tenant_id = :tenantId and sequence_id = :id and test")
        .param("tenantId", tenantId)
        .param("id", id)
        .update();
    for (String table : List.of("trigger_node", "canvas_version")) {
      jdbc.sql("delete from " + table + " where tenant_id = :tenantId and sequence_id = :id")
          .param("tenantId", tenantId)
          .param("id", id)
          .update();
    }
    jdbc.sql("delete from sequence where tenant_id = :tenantId and id = :id")
        .param("tenantId", tenantId)
        .param("id", id)
        .update();
  }
}
