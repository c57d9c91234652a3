package com.crmflow.api.trigger;

import com.crmflow.api.event.EventCause;
import com.crmflow.api.json.JsonColumns;
import com.crmflow.shared.outbound.CauseHeader;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The cause that a run's act (a write, an http_request) hands on: the run, its flow, the node, the
 * chain that led to the run and the chain's root. The chain is the run's own stored cause ({@code
 * automation_run.cause}, which only the service sets: never a trigger payload); the root is that
 * cause's root, or else the event that started the run (its idempotency key {@code event:<id>}), or
 * else the run itself.
 */
@Component
public class RunCauses {

  private static final String EVENT_KEY = "event:";

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final CauseHeader causeHeader;

  RunCauses(JdbcClient jdbc, JsonColumns json, CauseHeader causeHeader) {
    this.jdbc = jdbc;
    this.json = json;
    this.causeHeader = causeHeader;
  }

  /**
   * The cause a public trigger call carries in its {@code CRM-Cause} header: the run the token
   * names, when this deployment made the token for the trigger's tenant and the tenant has the run,
   * with the chain that led to that run. Null for any other call: a header that is no such token is
   * ignored, and the body is the caller's data, whatever it holds.
   *
   * @param header the header's value, or null
   */
  EventCause ofHeader(UUID tenantId, String header) {
    if (header == null) {
      return null;
    }
    return causeHeader
        .read(tenantId, header)
        .flatMap(token -> of(tenantId, token.runId(), token.nodeId()))
        .orElse(null);
  }

  /** Empty when the tenant has no such run. */
  public Optional<EventCause> of(UUID tenantId, UUID runId, String nodeId) {
    return jdbc.sql(
            """
            select sequence_id, idempotency_key, cause::text as cause
            from automation_run where tenant_id = :tenantId and id = :runId
            """)
        .param("tenantId", tenantId)
        .param("runId", runId)
        .query(
            (rs, row) -> {
              String stored = rs.getString("cause");
              EventCause startedBy = stored == null ? null : EventCause.from(json.readMap(stored));
              return EventCause.ofWrite(
                  runId,
                  rs.getObject("sequence_id", UUID.class),
                  nodeId,
                  startedBy,
                  rootOf(runId, rs.getString("idempotency_key")));
            })
        .optional();
  }

  private static UUID rootOf(UUID runId, String idempotencyKey) {
    if (idempotencyKey != null && idempotencyKey.startsWith(EVENT_KEY)) {
      try {
        return UUID.fromString(idempotencyKey.substring(EVENT_KEY.length()));
      } catch (IllegalArgumentException notAnEvent) {
        // a caller's own key that happens to start so
      }
    }
    return runId;
  }
}
