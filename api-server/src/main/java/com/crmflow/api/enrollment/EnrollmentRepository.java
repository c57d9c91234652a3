package com.crmflow.api.enrollment;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class EnrollmentRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, sequence_id, contact_id, status, run_id, enrolled_at, ended_at, updated_at
      """;

  private static final RowMapper<Enrollment> MAPPER =
      (rs, row) ->
          new Enrollment(
              rs.getObject("id", UUID.class),
              rs.getObject("tenant_id", UUID.class),
              rs.getObject("sequence_id", UUID.class),
              rs.getObject("contact_id", UUID.class),
              rs.getString("status"),
              rs.getObject("run_id", UUID.class),
              rs.getObject("enrolled_at", OffsetDateTime.class),
              rs.getObject("ended_at", OffsetDateTime.class),
              rs.getObject("updated_at", OffsetDateTime.class));

  private final JdbcClient jdbc;

  EnrollmentRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Enrolls the contact: a new enrollment, or the existing one updated. An active enrollment keeps
   * its run; an ended one becomes active again with {@code runId} as its new run. Concurrent calls
   * for the same contact queue on the row, so exactly one of them sees its {@code runId} win.
   */
  Enrollment upsert(UUID tenantId, UUID sequenceId, UUID contactId, UUID runId) {
    return jdbc.sql(
            """
            insert into enrollment (id, tenant_id, sequence_id, contact_id, status, run_id)
            values (:id, :tenantId, :sequenceId, :contactId, 'active', :runId)
            on conflict (tenant_id, sequence_id, contact_id) do update set
                updated_at = now(),
                status = 'active',
                run_id = case when enrollment.status = 'active'
                              then enrollment.run_id else excluded.run_id end,
                enrolled_at = case when enrollment.status = 'active'
                                   then enrollment.enrolled_at else now() end,
                ended_at = case when enrollment.status = 'active'
                                then enrollment.ended_at end
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("contactId", contactId)
        .param("runId", runId)
        .query(MAPPER)
        .single();
  }

  Optional<Enrollment> find(UUID tenantId, UUID sequenceId, UUID contactId) {
    return jdbc.sql(
            """
            select %s from enrollment
            where tenant_id = :tenantId and sequence_id = :sequenceId and contact_id = :contactId
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("contactId", contactId)
        .query(MAPPER)
        .optional();
  }

  /** Moves an active enrollment to an end status; empty when it was not active. */
  Optional<Enrollment> end(UUID tenantId, UUID id, String status) {
    return jdbc.sql(
            """
            update enrollment set status = :status, ended_at = now(), updated_at = now()
            where tenant_id = :tenantId and id = :id and status = 'active'
            returning %s
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .param("status", status)
        .query(MAPPER)
        .optional();
  }

  /** Ends the active enrollment whose current run is this one; empty when there is none. */
  Optional<Enrollment> endByRun(UUID runId, String status) {
    return jdbc.sql(
            """
            update enrollment set status = :status, ended_at = now(), updated_at = now()
            where run_id = :runId and status = 'active'
            returning %s
            """
                .formatted(COLUMNS))
        .param("runId", runId)
        .param("status", status)
        .query(MAPPER)
        .optional();
  }

  /**
   * Makes a failed enrollment active again with {@code retryRunId} as its run, if its current run
   * is still {@code failedRunId}; empty when the enrollment has moved on (enrolled again since).
   */
  Optional<Enrollment> resume(UUID failedRunId, UUID retryRunId) {
    return jdbc.sql(
            """
            update enrollment set status = 'active', run_id = :retryRunId, ended_at = null,
                updated_at = now()
            where run_id = :failedRunId and status = 'failed'
            returning %s
            """
                .formatted(COLUMNS))
        .param("failedRunId", failedRunId)
        .param("retryRunId", retryRunId)
        .query(MAPPER)
        .optional();
  }

  /** An enrollment with where its run stands: the latest node log entry of its current run. */
  record Progress(
      Enrollment enrollment,
      String currentNodeId,
      String currentNodeType,
      String currentNodeStatus,
      String nextStepAt) {}

  List<Progress> list(UUID tenantId, UUID sequenceId, String status, int limit, int offset) {
    return jdbc.sql(
            """
            select e.id, e.tenant_id, e.sequence_id, e.contact_id, e.status, e.run_id,
                   e.enrolled_at, e.ended_at, e.updated_at,
                   l.node_id, l.node_type, l.status as node_status,
                   case when l.status = 'running' then l.output ->> 'until' end as next_step_at
            from enrollment e
            left join lateral (
                select node_id, node_type, status, output from run_node_log
                where run_id = e.run_id order by seq desc limit 1
            ) l on true
            where e.tenant_id = :tenantId and e.sequence_id = :sequenceId
              and (cast(:status as text) is null or e.status = :status)
            order by e.enrolled_at desc, e.id desc
            limit :limit offset :offset
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .param("limit", limit)
        .param("offset", offset)
        .query(
            (rs, row) ->
                new Progress(
                    MAPPER.mapRow(rs, row),
                    rs.getString("node_id"),
                    rs.getString("node_type"),
                    rs.getString("node_status"),
                    rs.getString("next_step_at")))
        .list();
  }

  long count(UUID tenantId, UUID sequenceId, String status) {
    return jdbc.sql(
            """
            select count(*) from enrollment
            where tenant_id = :tenantId and sequence_id = :sequenceId
              and (cast(:status as text) is null or status = :status)
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("status", status)
        .query(Long.class)
        .single();
  }

  /** The name of the enrollment's sequence, for event data. */
  String sequenceName(Enrollment e) {
    return jdbc.sql("select name from sequence where tenant_id = :tenantId and id = :sequenceId")
        .param("sequenceId", e.sequenceId())
        .param("tenantId", e.tenantId())
        .query(String.class)
        .single();
  }

  /** The contact's id by its normalised email. */
  Optional<UUID> contactIdByEmail(UUID tenantId, String email) {
    return jdbc.sql("select id from contact where tenant_id = :tenantId and email = :email")
        .param("tenantId", tenantId)
        .param("email", email)
        .query(UUID.class)
        .optional();
  }
}
