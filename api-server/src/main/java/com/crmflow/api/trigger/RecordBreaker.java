package com.crmflow.api.trigger;

import com.crmflow.api.event.DispatchedEvent;
import com.crmflow.api.settings.CrmProperties;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The second line against loops, behind the chain of causes: an automation's crm_event_trigger
 * starts at most {@code crm.events.max-runs-per-record-per-minute} runs for one record (the event's
 * contact, opportunity, conversation) in one minute of the clock. It catches what carries no cause:
 * a loop through another system, or through this service's API without the run's {@code CRM-Cause}.
 * A start past the limit is refused (reason {@value #BREAKER}) and counted in its window ({@code
 * automation_start_window.refused}); the first refusal of a window is logged at WARN, naming
 * automation and record.
 */
@Component
class RecordBreaker {

  /** The refusal's reason: the automation started as many runs for the record as it may. */
  static final String BREAKER = "breaker";

  private static final Logger log = LoggerFactory.getLogger(RecordBreaker.class);

  private final JdbcClient jdbc;
  private final int limit;

  RecordBreaker(JdbcClient jdbc, CrmProperties properties) {
    this.jdbc = jdbc;
    this.limit = properties.events().maxRunsPerRecordPerMinute();
  }

  int limit() {
    return limit;
  }

  /**
   * The record an event is about, as {@code <type>:<id>}: its own type's id ({@code opportunity_id}
   * of an opportunity event), else its contact's (a sequence event's enrolled contact); null for an
   * event that names neither.
   */
  static String recordOf(DispatchedEvent event) {
    String type = event.event().contains(".") ? event.event().split("\\.", 2)[0] : event.event();
    Object own = event.data().get(type + "_id");
    if (own != null) {
      return type + ":" + own;
    }
    Object contact = event.data().get("contact_id");
    return contact == null ? null : "contact:" + contact;
  }

  /**
   * Counts a start of the automation for the event's record in this minute, in the calling
   * transaction: false, and the start not counted, when the automation has started as many for the
   * record as it may (or when it is off, 0, or the event names no record: true).
   */
  boolean admits(UUID tenantId, UUID sequenceId, DispatchedEvent event) {
    String record = recordOf(event);
    if (limit == 0 || record == null) {
      return true;
    }
    Optional<Integer> counted =
        jdbc.sql(
                """
                insert into automation_start_window as w
                    (tenant_id, sequence_id, record_key, window_start, runs)
                values (:tenantId, :sequenceId, :record, date_trunc('minute', now()), 1)
                on conflict (tenant_id, sequence_id, record_key, window_start)
                    do update set runs = w.runs + 1 where w.runs < :limit
                returning runs
                """)
            .param("tenantId", tenantId)
            .param("sequenceId", sequenceId)
            .param("record", record)
            .param("limit", limit)
            .query(Integer.class)
            .optional();
    if (counted.isPresent()) {
      return true;
    }
    int refused =
        jdbc.sql(
                """
                update automation_start_window set refused = refused + 1
                where tenant_id = :tenantId and sequence_id = :sequenceId
                  and record_key = :record and window_start = date_trunc('minute', now())
                returning refused
                """)
            .param("tenantId", tenantId)
            .param("sequenceId", sequenceId)
            .param("record", record)
            .query(Integer.class)
            .single();
    if (refused == 1) {
      log.warn(
          "Automation {} (tenant {}) started {} runs for {} in this minute, the most"
              + " crm.events.max-runs-per-record-per-minute allows: its further starts for it are"
              + " refused until the minute ends (a loop that carries no cause?)",
          sequenceId,
          tenantId,
          limit,
          record);
    }
    return false;
  }
}
