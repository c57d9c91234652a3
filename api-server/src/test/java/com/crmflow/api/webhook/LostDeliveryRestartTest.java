package com.crmflow.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A pending delivery of an earlier process (its workflow lost with the embedded server) is started
 * again and goes on with its next attempt, whose delay is over: here its subscription is inactive,
 * so that attempt stops it at once. (Started over from attempt 1 it would wait 5 s, then 5 min.)
 */
class LostDeliveryRestartTest extends ApiTest {

  @Autowired private WebhookDeliveries deliveries;

  @Test
  void aPendingDeliveryOfAnEarlierProcessIsStartedAgain() {
    UUID tenantId = newTenant().id();
    UUID subscriptionId = inactiveWebhookSubscription(tenantId);
    UUID deliveryId = UUID.randomUUID();
    jdbc.sql(
            """
            insert into webhook_delivery (id, tenant_id, subscription_id, event_id, event, body,
                attempts, workflow_started, created_at)
            values (:id, :tenant, :subscription, gen_random_uuid(), 'contact.created', '{}', 2,
                true, now() - interval '1 hour')
            """)
        .param("id", deliveryId)
        .param("tenant", tenantId)
        .param("subscription", subscriptionId)
        .update();
    // attempts 1 and 2 failed an hour ago: attempt 3's 5 minutes are over
    jdbc.sql(
            """
            insert into webhook_delivery_attempt (delivery_id, attempt, result, status_code,
                attempted_at)
            select :id, n, 'failed', 500, now() - interval '1 hour' from generate_series(1, 2) n
            """)
        .param("id", deliveryId)
        .update();

    assertThat(deliveries.restartLost()).isGreaterThanOrEqualTo(1);

    String status =
        await()
            .atMost(Duration.ofSeconds(20))
            .until(
                () ->
                    jdbc.sql("select status from webhook_delivery where id = :id")
                        .param("id", deliveryId)
                        .query(String.class)
                        .single(),
                s -> !s.equals("pending"));
    assertThat(status).isEqualTo("stopped");
    assertThat(
            jdbc.sql("select workflow_started from webhook_delivery where id = :id")
                .param("id", deliveryId)
                .query(Boolean.class)
                .single())
        .isTrue();
  }
}
