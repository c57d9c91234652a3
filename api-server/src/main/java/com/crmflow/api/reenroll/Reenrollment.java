package com.crmflow.api.reenroll;

import com.crmflow.api.flow.FlowSettings;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A flow's re-enrollment rule ({@code settings.reenroll}): {@code always} starts a run for every
 * trigger, event or enrollment; {@code never} starts one per record, ever; {@code after} another
 * once {@code reenroll_after_days} have passed since the record's last run started. A start claims
 * its record's row in {@code flow_record_run} in the transaction that stores the run (one
 * statement, an upsert on the row's key): of two starts for one record at the same instant, on any
 * api-server, the second waits for the first to commit and is refused. A flow with {@code always}
 * claims nothing, so its starts cost nothing more.
 */
@Component
public class Reenrollment {

  /** The reason a refused start gives ({@code notStarted.reason} of the trigger's answer). */
  public static final String REASON = "reenroll";

  private final JdbcClient jdbc;

  Reenrollment(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** Why a start was refused: the record, its last run, and a sentence saying so. */
  public record Refusal(
      String record, UUID lastRunId, OffsetDateTime lastStartedAt, String message) {}

  /**
   * Claims the start of run {@code runId} of the flow for {@code record}, in the caller's
   * transaction (it must roll back if the run is not stored after all).
   *
   * @param record the run's record ({@link RunRecords#of}), or null: nothing to claim
   * @return empty when the run may start; the refusal when the rule holds it back
   */
  @Transactional(propagation = Propagation.MANDATORY)
  public Optional<Refusal> claim(
      UUID tenantId, UUID sequenceId, FlowSettings settings, String record, UUID runId) {
    if (!settings.limitsReenrollment() || record == null) {
      return Optional.empty();
    }
    boolean claimed =
        jdbc.sql(
                """
                insert into flow_record_run (sequence_id, record, tenant_id, last_run_id)
                values (:sequenceId, :record, :tenantId, :runId)
                on conflict (sequence_id, record) do update set
                    last_started_at = now(), last_run_id = excluded.last_run_id,
                    runs = flow_record_run.runs + 1
                where cast(:afterDays as integer) is not null
                  and flow_record_run.last_started_at
                      <= now() - make_interval(days => cast(:afterDays as integer))
                returning 1
                """)
            .param("sequenceId", sequenceId)
            .param("record", record)
            .param("tenantId", tenantId)
            .param("runId", runId)
            .param(
                "afterDays",
                FlowSettings.AFTER.equals(settings.reenroll())
                    ? settings.reenrollAfterDays()
                    : null,
                java.sql.Types.INTEGER)
            .query(Integer.class)
            .optional()
            .isPresent();
    if (claimed) {
      return Optional.empty();
    }
    record Last(UUID lastRunId, OffsetDateTime lastStartedAt) {}
    Last last =
        jdbc.sql(
                """
                select last_run_id, last_started_at from flow_record_run
                where sequence_id = :sequenceId and record = :record
                """)
            .param("sequenceId", sequenceId)
            .param("record", record)
            .query(Last.class)
            .single();
    String which = record.replace(":", " ");
    String message =
        FlowSettings.NEVER.equals(settings.reenroll())
            ? "No run started: "
                + which
                + " had a run of this flow already (run "
                + last.lastRunId()
                + ", started "
                + last.lastStartedAt()
                + "), and the flow starts one run per record (settings.reenroll: never)."
            : "No run started: "
                + which
                + "'s last run of this flow (run "
                + last.lastRunId()
                + ") started "
                + last.lastStartedAt()
                + ", less than "
                + settings.reenrollAfterDays()
                + " days ago (settings.reenroll: after, reenroll_after_days: "
                + settings.reenrollAfterDays()
                + ").";
    return Optional.of(new Refusal(record, last.lastRunId(), last.lastStartedAt(), message));
  }

  /**
   * Enters every record the flow's runs so far were for (retries aside), so that a rule set on a
   * flow that had runs counts them: a record that had a run before {@code never} was set starts
   * none. In the transaction that stores the version with the rule.
   */
  @Transactional(propagation = Propagation.MANDATORY)
  void enterEarlierRuns(UUID tenantId, UUID sequenceId, String recordSql) {
    jdbc.sql(
            """
            insert into flow_record_run (sequence_id, record, tenant_id, first_started_at,
                                         last_started_at, last_run_id, runs)
            select :sequenceId, record, :tenantId, min(created_at), max(created_at),
                   (array_agg(id order by created_at desc))[1], count(*)
            from (select id, created_at, %s as record from automation_run
                  where tenant_id = :tenantId and sequence_id = :sequenceId
                    and retry_of is null and not test) runs
            where record is not null
            group by record
            on conflict (sequence_id, record) do update set
                first_started_at = least(flow_record_run.first_started_at,
                                         excluded.first_started_at),
                last_started_at = greatest(flow_record_run.last_started_at,
                                           excluded.last_started_at)
            """
                .formatted(recordSql))
        .param("sequenceId", sequenceId)
        .param("tenantId", tenantId)
        .update();
  }
}
