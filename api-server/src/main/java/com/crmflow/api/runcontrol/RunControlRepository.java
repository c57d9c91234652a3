package com.crmflow.api.runcontrol;

import com.crmflow.api.joblease.JobLeases;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The run control jobs, and the pages of runs in progress they go through. */
@Repository
class RunControlRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, sequence_id, action, reason, generation, status, runs, runs_asked, after_run\
      """;

  private final JdbcClient jdbc;

  RunControlRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  private static RunControlJob job(ResultSet rs, int row) throws SQLException {
    return new RunControlJob(
        rs.getObject("id", UUID.class),
        rs.getObject("tenant_id", UUID.class),
        rs.getObject("sequence_id", UUID.class),
        rs.getString("action"),
        rs.getString("reason"),
        rs.getLong("generation"),
        rs.getString("status"),
        rs.getLong("runs"),
        rs.getLong("runs_asked"),
        rs.getObject("after_run", UUID.class));
  }

  /** The flow's runs in progress (a test run acts on nothing: a pause leaves it to its end). */
  long runsInProgress(UUID tenantId, UUID sequenceId) {
    return jdbc.sql(
            """
            select count(*) from automation_run
            where tenant_id = :tenantId and sequence_id = :sequenceId and status = 'running'
              and not test
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .query(Long.class)
        .single();
  }

  /** The action of the flow's newest ask, if any: {@code hold} while its runs are held. */
  Optional<String> lastAction(UUID tenantId, UUID sequenceId) {
    return jdbc.sql(
            """
            select action from run_control_job
            where tenant_id = :tenantId and sequence_id = :sequenceId
            order by generation desc limit 1
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .query(String.class)
        .optional();
  }

  /**
   * Stores the ask, and ends the flow's earlier asks still under way: the new one goes to every run
   * in progress, and a run passes over an ask older than one it took.
   */
  RunControlJob insert(UUID tenantId, UUID sequenceId, String action, String reason, long runs) {
    jdbc.sql(
            """
            update run_control_job set status = 'superseded', leased_by = null, lease_until = null,
                updated_at = now(), finished_at = now()
            where tenant_id = :tenantId and sequence_id = :sequenceId and status = 'running'
            """)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .update();
    return jdbc.sql(
            """
            insert into run_control_job (id, tenant_id, sequence_id, action, reason, runs)
            values (:id, :tenantId, :sequenceId, :action, :reason, :runs)
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("action", action)
        .param("reason", reason)
        .param("runs", runs)
        .query(RunControlRepository::job)
        .single();
  }

  /**
   * Takes the oldest running job that no live api-server holds (its lease ran out, or it is this
   * one's), and holds it until {@code lease} from now.
   */
  Optional<RunControlJob> lease(String holder, Duration lease) {
    return JobLeases.leaseOldest(
        jdbc, "run_control_job", COLUMNS, holder, lease, RunControlRepository::job);
  }

  /** A run in progress of the job's flow: its id, workflow id and whether its workflow started. */
  record RunToAsk(UUID id, String workflowId, boolean workflowStarted) {}

  /** The next page of the flow's runs in progress, in id order after the job's cursor. */
  List<RunToAsk> page(RunControlJob job, int limit) {
    return jdbc.sql(
            """
            select id, workflow_id, workflow_started from automation_run
            where tenant_id = :tenantId and sequence_id = :sequenceId and status = 'running'
              and not test and id > :after
            order by id limit :limit
            """)
        .param("tenantId", job.tenantId())
        .param("sequenceId", job.sequenceId())
        .param("after", job.afterRun() == null ? new UUID(0, 0) : job.afterRun())
        .param("limit", limit)
        .query(
            (rs, row) ->
                new RunToAsk(
                    rs.getObject("id", UUID.class),
                    rs.getString("workflow_id"),
                    rs.getBoolean("workflow_started")))
        .list();
  }

  /** Records a page done; true while the holder holds the job. */
  boolean pageDone(UUID jobId, String holder, UUID lastRun, long asked) {
    return jdbc.sql(
                """
            update run_control_job set after_run = :last, runs_asked = runs_asked + :asked,
                updated_at = now()
            where id = :id and leased_by = :holder and status = 'running'
            """)
            .param("id", jobId)
            .param("holder", holder)
            .param("last", lastRun)
            .param("asked", asked)
            .update()
        == 1;
  }

  /** Every run was asked. */
  void complete(UUID jobId) {
    jdbc.sql(
            """
            update run_control_job set status = 'completed', leased_by = null, lease_until = null,
                updated_at = now(), finished_at = now()
            where id = :id and status = 'running'
            """)
        .param("id", jobId)
        .update();
  }
}
