package com.crmflow.api.recordwatch;

import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** What the record index and the outbox hold, read straight from PostgreSQL by the tests. */
final class RecordIndexRows {

  private RecordIndexRows() {}

  /** The events routed to the run and not taken out with its watches. */
  static int routedTo(JdbcClient jdbc, String runId) {
    return jdbc.sql("select count(*) from record_event_delivery where run_id = :id")
        .param("id", UUID.fromString(runId))
        .query(Integer.class)
        .single();
  }

  /** The tenant's events of that name that the outbox has dispatched. */
  static int dispatched(JdbcClient jdbc, UUID tenantId, String event) {
    return jdbc.sql(
            """
            select count(*) from event_outbox
            where tenant_id = :t and event = :e and dispatched_at is not null
            """)
        .param("t", tenantId)
        .param("e", event)
        .query(Integer.class)
        .single();
  }
}
