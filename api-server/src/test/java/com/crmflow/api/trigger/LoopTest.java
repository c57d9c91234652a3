package com.crmflow.api.trigger;

import static org.awaitility.Awaitility.await;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.shared.outbound.CauseHeader;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the tests of loops between automations: a fresh tenant with one contact, the runs of an
 * automation, the tenant's events still to dispatch and its contact.updated events with their
 * causes, and a wait until the automations have settled (every run ended, every event dispatched,
 * nothing more starting).
 */
abstract class LoopTest extends ApiTest {

  protected static final JsonMapper JSON = JsonMapper.builder().build();

  /** Longer than the dispatcher (every 250 ms) and a run take to act on a follow-up event. */
  protected static final Duration QUIET = Duration.ofSeconds(3);

  @Autowired protected MeterRegistry meters;
  @Autowired protected CrmProperties properties;
  @Autowired protected CauseHeader causeHeader;

  protected TenantClient tenant;
  protected String contactId;

  @BeforeEach
  void newTenantWithAContact() {
    tenant = newTenant();
    contactId = contact("loop@example.com");
  }

  protected String contact(String email) {
    return tenant
        .api()
        .post("/api/v1/contacts", Map.of("email", email, "first_name", "Lou"))
        .text("/contact/id");
  }

  protected List<JsonNode> runsOf(String sequenceId) {
    return tenant
        .api()
        .get("/api/v1/automation-runs?limit=100&sequence_id=" + sequenceId)
        .json()
        .at("/runs")
        .valueStream()
        .toList();
  }

  protected long pendingEvents() {
    return jdbc.sql(
            "select count(*) from event_outbox where tenant_id = :t and dispatched_at is null")
        .param("t", tenant.id())
        .query(Long.class)
        .single();
  }

  /**
   * The tenant's contact.updated events (their event_id and envelope) with their cause (null:
   * none), oldest first.
   */
  protected List<JsonNode> contactUpdates() {
    return jdbc
        .sql(
            """
            select jsonb_build_object('event_id', event_id, 'envelope', envelope, 'cause', cause)::text
            from event_outbox where tenant_id = :t and event = 'contact.updated' order by id
            """)
        .param("t", tenant.id())
        .query(String.class)
        .list()
        .stream()
        .map(JSON::readTree)
        .toList();
  }

  /** The starts the loop rules refused for this reason, in this service, so far. */
  protected double refused(String reason) {
    return meters.get("crm.events.starts.refused").tag("reason", reason).counter().count();
  }

  protected static JsonNode logEntry(JsonNode run, String nodeId) {
    for (JsonNode entry : run.get("node_log")) {
      if (entry.get("nodeId").asString().equals(nodeId)) {
        return entry;
      }
    }
    throw new AssertionError("no entry of " + nodeId + " in " + run);
  }

  /**
   * Waits until every run of these automations has ended and every event is dispatched, then checks
   * over {@link #QUIET} that nothing more starts: the runs stay {@code expected} in number.
   */
  protected void awaitSettled(Map<String, Integer> expectedRuns) {
    awaitSettled(expectedRuns, Patience.EVENTUALLY);
  }

  /** As {@link #awaitSettled(Map)}, for runs that take longer than most to all end. */
  protected void awaitSettled(Map<String, Integer> expectedRuns, Duration atMost) {
    await()
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                expectedRuns.entrySet().stream()
                        .allMatch(
                            e ->
                                runsOf(e.getKey()).size() >= e.getValue()
                                    && runsOf(e.getKey()).stream()
                                        .noneMatch(
                                            r -> r.get("status").asString().equals("running")))
                    && pendingEvents() == 0);
    await()
        .during(QUIET)
        .atMost(QUIET.plusSeconds(5))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () ->
                pendingEvents() == 0
                    && expectedRuns.entrySet().stream()
                        .allMatch(e -> runsOf(e.getKey()).size() == e.getValue()));
  }
}
