package com.crmflow.api.nodestats;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The counts of a flow's node log entries ({@code node_count}, kept by a trigger on {@code
 * run_node_log} as entries are written): a few rows per node, however many runs the flow had.
 */
@Repository
class NodeCountRepository {

  private final JdbcClient jdbc;

  NodeCountRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** One count: entries of a node in one state (and, for a split, one branch). */
  record Count(int canvasVersion, String nodeId, String status, String branch, long n) {}

  /** Every entry ever written, and those running now. */
  List<Count> allTime(UUID sequenceId) {
    return jdbc.sql(
            """
            select canvas_version, node_id, status, branch, sum(n)::bigint as n
            from node_count
            where sequence_id = :sequenceId and span = 'total'
            group by canvas_version, node_id, status, branch
            """)
        .param("sequenceId", sequenceId)
        .query(Count.class)
        .list();
  }

  /**
   * The entries that ended from {@code from} (a whole hour) on, and those running now: the hours of
   * {@code from}'s day from its hour (none when it is a day's start), then whole days.
   */
  List<Count> since(UUID sequenceId, Instant from) {
    OffsetDateTime start = from.atOffset(ZoneOffset.UTC);
    OffsetDateTime day = start.truncatedTo(ChronoUnit.DAYS);
    // a day's start reads that day's row: its hours may be gone (crm.retention.hourly-counts-keep)
    OffsetDateTime firstWholeDay = start.equals(day) ? day : day.plusDays(1);
    return jdbc.sql(
            """
            select canvas_version, node_id, status, branch, sum(n)::bigint as n
            from node_count
            where sequence_id = :sequenceId
              and ((span = 'total' and status = 'running')
                   or (span = 'hour' and since >= :from and since < :firstWholeDay)
                   or (span = 'day' and since >= :firstWholeDay))
            group by canvas_version, node_id, status, branch
            """)
        .param("sequenceId", sequenceId)
        .param("from", start)
        .param("firstWholeDay", firstWholeDay)
        .query(Count.class)
        .list();
  }

  /** The versions of the flow that runs still run on, lowest first (a walk of an index). */
  List<Integer> versionsInFlight(UUID sequenceId) {
    return jdbc.sql(
            """
            with recursive v(version) as (
                (select canvas_version from automation_run
                 where sequence_id = :sequenceId and status = 'running' and not test
                 order by canvas_version limit 1)
                union all
                select (select canvas_version from automation_run
                        where sequence_id = :sequenceId and status = 'running' and not test
                          and canvas_version > v.version
                        order by canvas_version limit 1)
                from v where v.version is not null)
            select version from v where version is not null
            """)
        .param("sequenceId", sequenceId)
        .query(Integer.class)
        .list();
  }
}
