package com.crmflow.api.retention;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The retention pass against real tables: what it deletes, what it must leave alone. */
class RetentionTest extends ApiTest {

  @Autowired private Retention retention;

  private TenantClient tenant;
  private UUID tenantId;
  private UUID subscriptionId;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    tenantId = tenant.id();
    subscriptionId = inactiveWebhookSubscription(tenantId);
  }

  /** A delivery in this state, created and (unless pending) finished this many days ago. */
  private void deliveries(int count, String status, int daysAgo) {
    jdbc.sql(
            """
            insert into webhook_delivery (id, tenant_id, subscription_id, event_id, event, body,
                status, attempts, workflow_started, created_at, completed_at)
            select gen_random_uuid(), :tenant, :subscription, gen_random_uuid(), 'contact.created',
                '{}', :status, 1, true, now() - make_interval(days => :days),
                case when :status = 'pending' then null
                     else now() - make_interval(days => :days) end
            from generate_series(1, :count)
            """)
        .param("tenant", tenantId)
        .param("subscription", subscriptionId)
        .param("status", status)
        .param("days", daysAgo)
        .param("count", count)
        .update();
  }

  private void attemptOfEveryDelivery() {
    jdbc.sql(
            """
            insert into webhook_delivery_attempt (delivery_id, attempt, result, status_code)
            select id, 1, 'delivered', 200 from webhook_delivery where subscription_id = :s
            """)
        .param("s", subscriptionId)
        .update();
  }

  private void event(String name, int daysAgo, boolean dispatched) {
    jdbc.sql(
            """
            insert into event_outbox (tenant_id, event_id, event, envelope, created_at,
                dispatched_at)
            values (:tenant, gen_random_uuid(), :name, '{}', now() - make_interval(days => :days),
                case when :dispatched then now() - make_interval(days => :days) end)
            """)
        .param("tenant", tenantId)
        .param("name", name)
        .param("days", daysAgo)
        .param("dispatched", dispatched)
        .update();
  }

  private List<String> deliveryStatuses() {
    return jdbc.sql(
            """
            select status || '/' || extract(day from now() - created_at)::int from webhook_delivery
            where subscription_id = :s order by 1
            """)
        .param("s", subscriptionId)
        .query(String.class)
        .list();
  }

  @Test
  void finishedDeliveriesOlderThanThirtyDaysGoInBatchesAndPendingOnesStay() {
    deliveries(Retention.BATCH + 5, "delivered", 40); // more than one batch
    deliveries(1, "failed", 31);
    deliveries(1, "stopped", 45);
    deliveries(1, "pending", 60); // still being attempted: never deleted, whatever its age
    deliveries(1, "delivered", 29);
    attemptOfEveryDelivery();

    retention.purge();

    assertThat(deliveryStatuses()).containsExactly("delivered/29", "pending/60");
    assertThat(
            jdbc.sql(
                    """
                    select count(*) from webhook_delivery_attempt a
                    where not exists (select 1 from webhook_delivery d where d.id = a.delivery_id)
                    """)
                .query(Long.class)
                .single())
        .as("the deleted deliveries' attempts went with them")
        .isZero();
  }

  @Test
  void dispatchedEventsOlderThanThirtyDaysGoAndUndispatchedOnesStay() {
    event("contact.created", 40, true);
    event("contact.updated", 40, false); // not handed on yet: kept
    event("contact.deleted", 10, true);

    retention.purge();

    assertThat(
            jdbc.sql("select event from event_outbox where tenant_id = :t order by event")
                .param("t", tenantId)
                .query(String.class)
                .list())
        .containsExactly("contact.deleted", "contact.updated");
  }

  @Test
  void securityEventsOlderThanNinetyDaysGo() {
    // a real refusal of this tenant's key, then two more rows aged as if kept for a while
    var readOnly = keyFor(tenantId, List.of("contacts:read"), null);
    assertThat(readOnly.post("/api/v1/contacts", java.util.Map.of("email", "a@b.example")).status())
        .isEqualTo(403);
    for (int daysAgo : new int[] {100, 80}) {
      jdbc.sql(
              """
              insert into security_event (tenant_id, actor, method, path, status, reason,
                                          remote_address, created_at)
              values (:t, 'api_key', 'GET', :path, 401, 'aged', '127.0.0.1',
                      now() - make_interval(days => :days))
              """)
          .param("t", tenantId)
          .param("path", "/aged/" + daysAgo)
          .param("days", daysAgo)
          .update();
    }

    retention.purge();

    assertThat(
            jdbc.sql("select path from security_event where tenant_id = :t order by path")
                .param("t", tenantId)
                .query(String.class)
                .list())
        .containsExactly("/aged/80", "/api/v1/contacts");
  }

  /** The breaker reads the current minute's counts: older ones go after an hour. */
  @Test
  void countsOfAutomationStartsGoAfterAnHour() {
    UUID automation = UUID.randomUUID();
    for (int minutesAgo : new int[] {90, 61, 30, 0}) {
      jdbc.sql(
              """
              insert into automation_start_window (tenant_id, sequence_id, record_key,
                                                   window_start, runs)
              values (:t, :s, 'contact:x', date_trunc('minute', now())
                                           - make_interval(mins => :ago), 3)
              """)
          .param("t", tenantId)
          .param("s", automation)
          .param("ago", minutesAgo)
          .update();
    }

    retention.purge();

    assertThat(
            jdbc.sql(
                    """
                    select (extract(epoch from date_trunc('minute', now()) - window_start) / 60)::int
                    from automation_start_window where tenant_id = :t order by window_start
                    """)
                .param("t", tenantId)
                .query(Integer.class)
                .list())
        .containsExactly(30, 0);
  }

  @Test
  void handOverMarksOlderThanThirtyDaysGo() {
    String old = "email <" + UUID.randomUUID() + ".mail@crmflow.local>";
    String recent = "email <" + UUID.randomUUID() + ".mail@crmflow.local>";
    for (String[] mark : new String[][] {{old, "40"}, {recent, "10"}}) {
      jdbc.sql(
              """
              insert into hand_over (effect_key, state, updated_at)
              values (:key, 'delivered', now() - make_interval(days => :days))
              """)
          .param("key", mark[0])
          .param("days", Integer.parseInt(mark[1]))
          .update();
    }

    retention.purge();

    assertThat(
            jdbc.sql("select effect_key from hand_over where effect_key in (:keys)")
                .param("keys", java.util.List.of(old, recent))
                .query(String.class)
                .list())
        .containsExactly(recent);
  }

  @Test
  void nodeEffectsOlderThanThirtyDaysGoOnceTheirRunHasEnded() {
    String sequence = SequenceSupport.automation(tenant.api(), "retention " + UUID.randomUUID());
    UUID ended = run(sequence, "completed");
    UUID stillRunning = run(sequence, "running");
    nodeEffect(ended, "old", 40);
    nodeEffect(ended, "recent", 10);
    nodeEffect(stillRunning, "old", 40); // its run may still run the node again

    retention.purge();

    assertThat(
            jdbc.sql(
                    """
                    select case when run_id = :ended then 'ended' else 'running' end
                        || '/' || node_id
                    from node_effect where run_id in (:ended, :running) order by 1
                    """)
                .param("ended", ended)
                .param("running", stillRunning)
                .query(String.class)
                .list())
        .containsExactly("ended/recent", "running/old");
  }

  /** A run of the sequence in this status, as the trigger would have stored it. */
  private UUID run(String sequence, String status) {
    UUID id = UUID.randomUUID();
    jdbc.sql(
            """
            insert into automation_run (id, tenant_id, sequence_id, canvas_version,
                trigger_node_id, start_node_id, trigger_payload, status, workflow_id,
                workflow_started)
            values (:id, :tenant, cast(:sequence as uuid), 1, 'hook', 'hook', '{}', :status,
                'run-' || :id, true)
            """)
        .param("id", id)
        .param("tenant", tenantId)
        .param("sequence", sequence)
        .param("status", status)
        .update();
    return id;
  }

  private void nodeEffect(UUID runId, String nodeId, int daysAgo) {
    jdbc.sql(
            """
            insert into node_effect (run_id, node_id, tenant_id, output, created_at)
            values (:run, :node, :tenant, '{}', now() - make_interval(days => :days))
            """)
        .param("run", runId)
        .param("node", nodeId)
        .param("tenant", tenantId)
        .param("days", daysAgo)
        .update();
  }
}
