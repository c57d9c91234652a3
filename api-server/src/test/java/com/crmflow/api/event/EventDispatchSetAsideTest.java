package com.crmflow.api.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An outbox event whose dispatch fails on its own (here a handler that throws for it, as a bug
 * would) is set aside after its attempts, and the events after it, held up meanwhile, go on.
 */
@DirtiesContext
class EventDispatchSetAsideTest extends ApiTest {

  private static final String POISON = "test.poison";

  @DynamicPropertySource
  static void setAsideAtOnce(DynamicPropertyRegistry registry) {
    registry.add("crm.events.set-aside-after", () -> "0s");
  }

  @TestConfiguration
  static class AHandlerWithABug {
    @Bean
    OutboxEventHandler failsForThePoisonEvent() {
      return events -> {
        for (var event : events) {
          if (POISON.equals(event.event())) {
            throw new IllegalStateException("a handler's bug, met by " + event.eventId());
          }
        }
        return List.of();
      };
    }
  }

  private record Outboxed(
      String event, int failedAttempts, String lastError, OffsetDateTime dispatchedAt) {}

  private List<Outboxed> outbox(UUID tenantId) {
    return jdbc.sql(
            """
            select event, failed_attempts, last_error, dispatched_at from event_outbox
            where tenant_id = :t order by id
            """)
        .param("t", tenantId)
        .query(Outboxed.class)
        .list();
  }

  @Test
  void aFailingEventIsSetAsideAndTheEventsAfterItGoOn() {
    TenantClient tenant = newTenant();
    UUID poisonId = UUID.randomUUID();
    double setAsideBefore = prometheus("crm_events_set_aside_total");
    jdbc.sql(
            """
            insert into event_outbox (tenant_id, event_id, event, envelope)
            values (:t, :e, :event, cast('{"data": {}}' as jsonb))
            """)
        .param("t", tenant.id())
        .param("e", poisonId)
        .param("event", POISON)
        .update();
    // an event after it, which the failing one holds up until it is set aside
    tenant.api().post("/api/v1/contacts", Map.of("email", "after-the-poison@example.com"));

    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> outbox(tenant.id()).stream().allMatch(e -> e.dispatchedAt() != null));

    List<Outboxed> events = outbox(tenant.id());
    assertThat(events).extracting(Outboxed::event).containsExactly(POISON, "contact.created");
    Outboxed poison = events.get(0);
    assertThat(poison.failedAttempts()).isEqualTo(EventDispatcher.MAX_ATTEMPTS);
    assertThat(poison.lastError()).contains("a handler's bug, met by " + poisonId);
    Outboxed after = events.get(1);
    assertThat(after.failedAttempts()).isZero();
    assertThat(after.lastError()).isNull();
    assertThat(after.dispatchedAt()).isAfterOrEqualTo(poison.dispatchedAt());
    assertThat(prometheus("crm_events_set_aside_total")).isEqualTo(setAsideBefore + 1);
  }
}
