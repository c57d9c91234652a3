package com.crmflow.api.webhook;

import static com.crmflow.api.support.RowLocks.awaitSomeoneWaitingFor;
import static com.crmflow.api.support.RowLocks.backendPid;
import static com.crmflow.api.support.RowLocks.update;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Flows;
import com.crmflow.api.support.HttpsReceiver;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.RefusedPort;
import com.crmflow.api.support.SequenceSupport;
import com.crmflow.api.temporal.ClosedWorkflowSweep;
import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.webhook.AttemptOutcome;
import com.crmflow.workflow.webhook.WebhookActivities;
import io.temporal.client.WorkflowClient;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Subscriptions and signed deliveries to a real HTTPS receiver on loopback (self-signed
 * certificate, trusted through crm.http.trusted-certificates), with a retry schedule shortened to
 * twelve attempts 100 ms apart.
 */
// a configuration of its own: its service stops after the class instead of idling beside the others
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class WebhookDeliveryTest extends ApiTest {

  private static final HttpsReceiver RECEIVER = new HttpsReceiver();
  private static final String SECRET = "It's a Secret to Everybody";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @DynamicPropertySource
  static void receiver(DynamicPropertyRegistry registry) {
    registry.add("crm.http.trusted-certificates", () -> RECEIVER.certificatePem().toString());
    registry.add("crm.webhooks.retry-schedule", () -> "0s" + ",100ms".repeat(11)); // 12 attempts
  }

  @AfterAll
  static void stopReceiver() {
    RECEIVER.close();
  }

  @Autowired private WorkflowClient temporal;
  @Autowired private ClosedWorkflowSweep sweep;
  @Autowired private CauseHeader causeHeader;
  @Autowired private DataSource dataSource;
  @Autowired private WebhookActivities webhookActivities;
  private TenantClient tenant;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
  }

  private String subscribe(String path, List<String> events, String secret) {
    Map<String, Object> body =
        secret == null
            ? Map.of("url", RECEIVER.url(path), "events", events)
            : Map.of("url", RECEIVER.url(path), "events", events, "secret", secret);
    ApiResponse created = tenant.api().post("/api/v1/webhooks/subscribe", body);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/subscription/id");
  }

  private JsonNode subscription(String id) {
    for (JsonNode s : tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions")) {
      if (s.get("id").asString().equals(id)) {
        return s;
      }
    }
    throw new AssertionError("no subscription " + id);
  }

  private String contact(String email) {
    return tenant.api().post("/api/v1/contacts", Map.of("email", email)).text("/contact/id");
  }

  private static String unique(String base) {
    return "/" + base + "-" + UUID.randomUUID();
  }

  @Test
  void subscribeListPatchAndDelete() {
    String path = unique("hook");
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of(
                    "url",
                    RECEIVER.url(path),
                    "events",
                    List.of("contact.created", "opportunity.stage_changed"),
                    "secret",
                    SECRET));

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.at("/subscription/url").asString()).isEqualTo(RECEIVER.url(path));
    assertThat(created.at("/subscription/events").toString())
        .isEqualTo("[\"contact.created\",\"opportunity.stage_changed\"]");
    assertThat(created.at("/subscription/is_active").asBoolean()).isTrue();
    assertThat(created.rawBody()).doesNotContain(SECRET);
    String id = created.text("/subscription/id");

    JsonNode listed = tenant.api().get("/api/v1/webhooks/subscribe").json();
    assertThat(listed.at("/subscriptions").size()).isEqualTo(1);
    assertThat(listed.at("/subscriptions/0/failure_count").asInt()).isZero();
    assertThat(listed.at("/subscriptions/0/last_triggered_at").isNull()).isTrue();
    assertThat(listed.toString()).doesNotContain(SECRET);
    assertThat(listed.at("/available_events").valueStream().map(JsonNode::asString).toList())
        .containsExactlyElementsOf(EventNames.ALL)
        .hasSize(16);

    ApiResponse patched =
        tenant
            .api()
            .patch(
                "/api/v1/webhooks/subscriptions/" + id,
                Map.of("events", List.of("contact.updated"), "is_active", false));
    assertThat(patched.status()).isEqualTo(200);
    assertThat(patched.at("/subscription/events/0").asString()).isEqualTo("contact.updated");
    assertThat(patched.at("/subscription/is_active").asBoolean()).isFalse();

    TenantClient other = newTenant();
    assertThat(
            other
                .api()
                .patch("/api/v1/webhooks/subscriptions/" + id, Map.of("is_active", true))
                .status())
        .isEqualTo(404);
    assertThat(other.api().delete("/api/v1/webhooks/subscriptions/" + id).status()).isEqualTo(404);
    assertThat(other.api().get("/api/v1/webhooks/subscribe").at("/subscriptions").size()).isZero();

    assertThat(tenant.api().delete("/api/v1/webhooks/subscriptions/" + id).status()).isEqualTo(204);
    assertThat(tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions").size()).isZero();
  }

  private record Delivered(UUID eventId, UUID subscriptionId, UUID tenantId) {}

  @Test
  void aBatchOfTwoTenantsEventsGoesToEachTenantsOwnSubscription() {
    UUID mine = UUID.fromString(subscribe("/batch-mine", List.of("contact.created"), null));
    TenantClient other = newTenant();
    ApiResponse created =
        other
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of("url", RECEIVER.url("/batch-other"), "events", List.of("contact.created")));
    UUID theirs = UUID.fromString(created.text("/subscription/id"));

    // four events of the two tenants, alternating, committed together: the dispatcher takes them
    // in one batch, where each tenant's subscriptions are looked up once
    List<UUID> tenants = List.of(tenant.id(), other.id(), tenant.id(), other.id());
    List<UUID> events =
        List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    jdbc.sql(
            """
            insert into event_outbox (tenant_id, event_id, event, envelope)
            select t, e, 'contact.created',
                   jsonb_build_object('event', 'contact.created', 'timestamp', now()::text,
                                      'tenant_id', t::text, 'data', jsonb_build_object('id', e::text))
            from unnest(:tenants::uuid[], :events::uuid[]) as batch (t, e)
            """)
        .param("tenants", tenants.toArray(UUID[]::new))
        .param("events", events.toArray(UUID[]::new))
        .update();

    List<Delivered> delivered =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    jdbc.sql(
                            """
                            select event_id, subscription_id, tenant_id from webhook_delivery
                            where event_id = any(:events) order by event_id
                            """)
                        .param("events", events.toArray(UUID[]::new))
                        .query(Delivered.class)
                        .list(),
                rows -> rows.size() >= 4);
    assertThat(delivered)
        .containsExactlyInAnyOrder(
            new Delivered(events.get(0), mine, tenant.id()),
            new Delivered(events.get(1), theirs, other.id()),
            new Delivered(events.get(2), mine, tenant.id()),
            new Delivered(events.get(3), theirs, other.id()));
  }

  @Test
  void subscribingToARecordsEventsNeedsItsReadScope() {
    ApiClient webhooksOnly = keyFor(tenant.id(), List.of("webhooks:write"), null);
    String path = unique("no-read");

    ApiResponse refused =
        webhooksOnly.post(
            "/api/v1/webhooks/subscribe",
            Map.of(
                "url",
                RECEIVER.url(path),
                "events",
                List.of("contact.created", "opportunity.created")));

    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail"))
        .isEqualTo(
            "A subscription sends the records of its events; this API key lacks contacts:read,"
                + " opportunities:read.");
    assertThat(tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions").size()).isZero();

    // a subscription the tenant's full key made cannot be redirected or widened by the narrow key
    String id = subscribe(path, List.of("contact.created"), null);
    ApiResponse redirected =
        webhooksOnly.patch(
            "/api/v1/webhooks/subscriptions/" + id, Map.of("url", RECEIVER.url(unique("other"))));
    assertThat(redirected.status()).as(redirected.toString()).isEqualTo(403);
    assertThat(subscription(id).get("url").asString()).isEqualTo(RECEIVER.url(path));
    ApiResponse widened =
        webhooksOnly.patch(
            "/api/v1/webhooks/subscriptions/" + id,
            Map.of("events", List.of("conversation.created")));
    assertThat(widened.status()).as(widened.toString()).isEqualTo(403);
    assertThat(subscription(id).get("events").toString()).isEqualTo("[\"contact.created\"]");

    ApiClient readsContacts = keyFor(tenant.id(), List.of("webhooks:write", "contacts:read"), null);
    ApiResponse allowed =
        readsContacts.patch(
            "/api/v1/webhooks/subscriptions/" + id, Map.of("url", RECEIVER.url(unique("moved"))));
    assertThat(allowed.status()).as(allowed.toString()).isEqualTo(200);
    assertThat(subscription(id).get("url").asString()).contains("/moved-");
  }

  /**
   * The owner's subscription to contact.created has a delivery waiting on a failing receiver. A key
   * without contacts:read narrows the subscription's events to one it may read, then tries to move
   * it (and to sign with its own secret, or to switch it off): each is refused, because a pending
   * delivery carries a contact. When the owner moves it, the pending delivery ends unsent, saying
   * why, and the new url receives only what is recorded after the move.
   */
  @Test
  void aPendingDeliveryNeverReachesAMovedUrlAndANarrowKeyCannotMoveIt() throws Exception {
    String failing = unique("failing");
    for (int i = 0; i < 9; i++) {
      RECEIVER.answerOnce(failing, 500, 1_000); // slow failures keep the delivery pending
    }
    RECEIVER.answer(failing, 500);
    String id = subscribe(failing, List.of("contact.created"), SECRET);
    contact("pending@example.com");
    await().atMost(Patience.EVENTUALLY).until(() -> !RECEIVER.received(failing).isEmpty());
    String deliveryId = tenant.api().get(deliveriesOf(id)).text("/deliveries/0/id");

    ApiClient narrow =
        keyFor(
            tenant.id(),
            List.of(
                "webhooks:write",
                "sequences:read",
                "sequences:write",
                "automation_runs:read",
                "automation_runs:write"),
            null);
    String attacker = unique("attacker");
    ApiResponse narrowed =
        narrow.patch(
            "/api/v1/webhooks/subscriptions/" + id, Map.of("events", List.of("sequence.enrolled")));
    assertThat(narrowed.status()).as(narrowed.toString()).isEqualTo(200);
    for (Map<String, Object> change :
        List.<Map<String, Object>>of(
            Map.of("url", RECEIVER.url(attacker), "secret", "mine"),
            Map.of("url", RECEIVER.url(attacker)),
            Map.of("secret", "mine"),
            Map.of("is_active", false))) {
      ApiResponse refused = narrow.patch("/api/v1/webhooks/subscriptions/" + id, change);
      assertThat(refused.status()).as(change + ": " + refused).isEqualTo(403);
      assertThat(refused.text("/detail"))
          .isEqualTo(
              "A subscription sends the records of its events; this API key lacks"
                  + " contacts:read.");
    }
    assertThat(subscription(id).get("url").asString()).isEqualTo(RECEIVER.url(failing));
    assertThat(tenant.api().get(deliveriesOf(id)).text("/deliveries/0/status"))
        .isEqualTo("pending");

    String moved = unique("moved");
    ApiResponse move =
        tenant
            .api()
            .patch(
                "/api/v1/webhooks/subscriptions/" + id,
                Map.of("url", RECEIVER.url(moved), "secret", "rotated"));
    assertThat(move.status()).as(move.toString()).isEqualTo(200);

    String why =
        "Not sent: the subscription's url and secret were changed while this delivery was pending;"
            + " a delivery goes only to the url, signed with the secret, its subscription had when"
            + " the event was recorded.";
    JsonNode logged = tenant.api().get(deliveriesOf(id)).at("/deliveries/0");
    assertThat(logged.get("id").asString()).isEqualTo(deliveryId);
    assertThat(logged.get("event").asString()).isEqualTo("contact.created");
    assertThat(logged.get("status").asString()).isEqualTo("stopped");
    assertThat(logged.get("last_error").asString()).isEqualTo(why);
    assertThat(logged.get("completed_at").isNull()).isFalse();
    // the delivery's workflow finds it ended at its next attempt and sends nothing more
    String result =
        temporal
            .newUntypedWorkflowStub("delivery-" + deliveryId)
            .getResult(20, java.util.concurrent.TimeUnit.SECONDS, String.class);
    assertThat(result).isEqualTo("stopped");
    assertThat(RECEIVER.received(moved)).isEmpty();
    assertThat(RECEIVER.received(attacker)).isEmpty();
    assertThat(RECEIVER.received(failing)).hasSize(attemptCount(id));
    Map<String, Object> row =
        jdbc.sql(
                """
                select status, last_error, destination_version from webhook_delivery
                where id = cast(:id as uuid)
                """)
            .param("id", deliveryId)
            .query()
            .singleRow();
    assertThat(row)
        .containsEntry("status", "stopped")
        .containsEntry("last_error", why)
        .containsEntry("destination_version", 1);
    assertThat(tenant.api().get(deliveriesOf(id)).at("/deliveries/0/status").asString())
        .isEqualTo("stopped");

    // what is recorded after the move goes to the new url, signed with the new secret
    tenant
        .api()
        .patch(
            "/api/v1/webhooks/subscriptions/" + id, Map.of("events", List.of("contact.created")));
    contact("after-move@example.com");
    await().atMost(Patience.EVENTUALLY).until(() -> RECEIVER.received(moved).size() == 1);
    HttpsReceiver.Received delivered = RECEIVER.received(moved).get(0);
    assertThat(new String(delivered.body(), StandardCharsets.UTF_8))
        .contains("after-move@example.com")
        .doesNotContain("pending@example.com");
    assertThat(delivered.header("X-Service-Signature"))
        .isEqualTo(WebhookSignature.sign("rotated", delivered.body()));
  }

  /**
   * An event recorded before the url changed and dispatched after it (the dispatcher was behind) is
   * stored stopped, not sent to the new url; one recorded after the change goes there.
   */
  @Test
  void anEventRecordedBeforeAMoveAndDispatchedAfterItIsNotSentToTheNewUrl() {
    String before = unique("before-move");
    String id = subscribe(before, List.of("contact.created"), null);
    String after = unique("after-move");
    assertThat(
            tenant
                .api()
                .patch("/api/v1/webhooks/subscriptions/" + id, Map.of("url", RECEIVER.url(after)))
                .status())
        .isEqualTo(200);

    UUID early = UUID.randomUUID();
    UUID late = UUID.randomUUID();
    jdbc.sql(
            """
            insert into event_outbox (tenant_id, event_id, event, envelope, created_at)
            select :tenant, e, 'contact.created',
                   jsonb_build_object('event', 'contact.created', 'timestamp', now()::text,
                                      'tenant_id', :tenant::text,
                                      'data', jsonb_build_object('id', e::text)),
                   at
            from (values (:early, now() - interval '1 minute'), (:late, now())) as batch (e, at)
            """)
        .param("tenant", tenant.id())
        .param("early", early)
        .param("late", late)
        .update();

    await().atMost(Patience.EVENTUALLY).until(() -> RECEIVER.received(after).size() == 1);
    assertThat(new String(RECEIVER.received(after).get(0).body(), StandardCharsets.UTF_8))
        .contains(late.toString())
        .doesNotContain(early.toString());
    Map<String, Object> stopped =
        jdbc.sql(
                """
                select status, last_error, workflow_started from webhook_delivery
                where event_id = :early
                """)
            .param("early", early)
            .query()
            .singleRow();
    assertThat(stopped)
        .containsEntry("status", "stopped")
        .containsEntry("last_error", DestinationChange.RECORDED_BEFORE)
        .containsEntry("workflow_started", false);
    assertThat(RECEIVER.received(before)).isEmpty();
    JsonNode log =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () -> tenant.api().get(deliveriesOf(id)).at("/deliveries"),
                deliveries -> deliveries.toString().contains("\"delivered\""));
    assertThat(log.valueStream().map(d -> d.get("status").asString()))
        .containsExactlyInAnyOrder("stopped", "delivered");
  }

  @Test
  void badSubscriptionsAreRefusedAndStoreNothing() {
    List<Map<String, Object>> bad =
        List.of(
            Map.of("events", List.of("contact.created")),
            Map.of("url", "http://example.com/hook", "events", List.of("contact.created")),
            Map.of("url", "not a url", "events", List.of("contact.created")),
            Map.of("url", "https://example.com/hook"),
            Map.of("url", "https://example.com/hook", "events", List.of()),
            Map.of("url", "https://example.com/hook", "events", List.of("contact.deleted")),
            Map.of("url", "https://example.com/hook", "events", List.of("contact.created"), "x", 1),
            Map.of(
                "url",
                "https://example.com/hook",
                "events",
                List.of("contact.created"),
                "secret",
                5));
    for (Map<String, Object> body : bad) {
      ApiResponse refused = tenant.api().post("/api/v1/webhooks/subscribe", body);
      assertThat(refused.status()).as(body.toString()).isEqualTo(400);
      assertThat(refused.at("/errors").size()).as(body.toString()).isPositive();
    }
    assertThat(tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions").size()).isZero();
  }

  @Test
  void everyEventTheApiEmitsArrivesSignedWithStableHeaders() throws Exception {
    String path = unique("all");
    subscribe(path, EventNames.ALL, SECRET);

    String contactId = contact("signed@example.com");
    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Signe"));
    String opportunity =
        tenant
            .api()
            .post("/api/v1/opportunities", Map.of("name", "Deal", "stage", "qualified"))
            .at("/opportunity/id")
            .asString();
    tenant.api().patch("/api/v1/opportunities/" + opportunity, Map.of("stage", "closed_won"));
    String conversation =
        tenant
            .api()
            .post("/api/v1/conversations", Map.of("contact_id", contactId, "content", "hi"))
            .text("/conversation_id");
    tenant
        .api()
        .patch("/api/v1/conversations/" + conversation, Map.of("override_status", "human_active"));
    String sequenceId = sequence(tenant.api(), "Webhook sequence");
    tenant
        .api()
        .put(
            "/api/sequences/" + sequenceId + "/canvas",
            Flows.canvas(List.of(Flows.node("wait", "delay", Map.of("delayDays", 1))), List.of()));
    tenant.api().patch("/api/v1/sequences/" + sequenceId, Map.of("status", "active"));
    Map<String, Object> enrollment = Map.of("sequence_id", sequenceId, "contact_id", contactId);
    tenant.api().post("/api/v1/sequences/enroll", enrollment);
    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> tenant.api().post("/api/v1/sequences/unenroll", enrollment).status() == 200);

    Set<String> expected =
        Set.of(
            "contact.created",
            "contact.updated",
            "opportunity.created",
            "opportunity.updated",
            "opportunity.stage_changed",
            "conversation.created",
            "conversation.override",
            "sequence.enrolled",
            "sequence.unenrolled");
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              Set<String> seen = new HashSet<>();
              RECEIVER.received(path).forEach(r -> seen.add(r.header("X-Service-Event")));
              return seen.containsAll(expected);
            });

    Set<String> deliveryIds = new HashSet<>();
    for (HttpsReceiver.Received delivery : RECEIVER.received(path)) {
      JsonNode envelope = JSON.readTree(new String(delivery.body(), StandardCharsets.UTF_8));
      assertThat(delivery.header("X-Service-Signature"))
          .isEqualTo(WebhookSignature.sign(SECRET, delivery.body()));
      assertThat(delivery.header("Content-Type")).startsWith("application/json");
      assertThat(delivery.header("X-Service-Event")).isEqualTo(envelope.get("event").asString());
      assertThat(envelope.propertyNames())
          .containsExactly("event", "timestamp", "tenant_id", "data");
      assertThat(envelope.get("tenant_id").asString()).isEqualTo(tenant.id().toString());
      assertThat(deliveryIds.add(delivery.header("X-Service-Delivery"))).isTrue();
    }
    JsonNode created =
        RECEIVER.received(path).stream()
            .map(r -> JSON.readTree(new String(r.body(), StandardCharsets.UTF_8)))
            .filter(e -> e.get("event").asString().equals("contact.created"))
            .findFirst()
            .orElseThrow();
    assertThat(created.at("/data/contact_id").asString()).isEqualTo(contactId);
    assertThat(created.at("/data/email").asString()).isEqualTo("signed@example.com");
    assertThat(created.at("/data").has("name")).isTrue();
    assertThat(created.at("/data").has("company")).isTrue();
  }

  /**
   * A delivery of an event a run's write produced names that run and its node to this deployment (a
   * CRM-Cause token), so a subscription aimed at the service's own public trigger continues the
   * run's chain; a client's event has none.
   */
  @Test
  void aDeliveryOfAnEventARunWroteNamesTheRunAsItsCause() {
    String path = unique("caused");
    subscribe(path, List.of("contact.updated"), null);
    String triggerId = "on-update-" + UUID.randomUUID().toString().substring(0, 8);
    String automation =
        SequenceSupport.activeAutomation(
            tenant.api(),
            Flows.canvas(
                List.of(
                    Flows.node(
                        triggerId, "crm_event_trigger", Map.of("eventType", "contact.updated")),
                    Flows.node(
                        "stamp",
                        "crm_update",
                        Map.of(
                            "entityType",
                            "contact",
                            "recordId",
                            "{{trigger.data.contact_id}}",
                            "fieldMappings",
                            Map.of("title", "{{trigger.timestamp}}")))),
                List.of(Flows.edge("e1", triggerId, "stamp"))));
    String contactId = contact("caused@example.com");

    tenant.api().patch("/api/v1/contacts/" + contactId, Map.of("first_name", "Cass"));

    await().atMost(Patience.EVENTUALLY).until(() -> RECEIVER.received(path).size() == 2);
    String runId =
        tenant
            .api()
            .get("/api/v1/automation-runs?sequence_id=" + automation)
            .at("/runs/0/id")
            .asString();
    // the run's delivery carries a token only this deployment reads, naming the run for its
    // tenant; the client's none
    List<String> causes =
        RECEIVER.received(path).stream()
            .map(r -> r.header("CRM-Cause"))
            .map(
                token ->
                    token == null
                        ? "none"
                        : causeHeader
                            .read(tenant.id(), token)
                            .map(CauseHeader.Cause::runAndNode)
                            .orElse("unreadable"))
            .toList();
    assertThat(causes).containsExactlyInAnyOrder("none", runId + ":stamp");
    assertThat(RECEIVER.received(path))
        .allSatisfy(r -> assertThat(String.valueOf(r.header("CRM-Cause"))).doesNotContain(runId));
    assertThat(
            jdbc.sql(
                    "select cause from webhook_delivery where tenant_id = :t and cause is not null")
                .param("t", tenant.id())
                .query(String.class)
                .list())
        .containsExactly(runId + ":stamp");
  }

  @Test
  void nineFailuresThenASuccessKeepTheSubscriptionActive() {
    String path = unique("flaky");
    for (int i = 0; i < 9; i++) {
      RECEIVER.answerOnce(path, 500, 0);
    }
    String id = subscribe(path, List.of("contact.created"), SECRET);

    contact("flaky@example.com");

    await().atMost(Patience.EVENTUALLY).until(() -> RECEIVER.received(path).size() == 10);
    JsonNode delivery =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () ->
                    tenant
                        .api()
                        .get("/api/v1/webhooks/subscriptions/" + id + "/deliveries")
                        .at("/deliveries/0"),
                d -> "delivered".equals(d.path("status").asString()));
    assertThat(delivery.get("attempts").asInt()).isEqualTo(10);
    JsonNode subscription = subscription(id);
    assertThat(subscription.get("is_active").asBoolean()).isTrue();
    assertThat(subscription.get("failure_count").asInt()).isZero();
    assertThat(subscription.get("last_triggered_at").isNull()).isFalse();
    // the same delivery id, event and signature on every attempt
    assertThat(RECEIVER.received(path).stream().map(r -> r.header("X-Service-Delivery")).distinct())
        .hasSize(1);
    assertThat(
            RECEIVER.received(path).stream().map(r -> r.header("X-Service-Signature")).distinct())
        .hasSize(1);
  }

  @Test
  void aSigningSecretThatCannotBeUnsealedFailsTheAttemptsAndSendsNothing() {
    String path = unique("unsealable");
    String id = subscribe(path, List.of("contact.created"), SECRET);
    // stored sealed under a key this service does not hold
    jdbc.sql("update webhook_subscription set secret_ciphertext = ? where id = ?")
        .param(
            new SecretCipher(Base64.getEncoder().encodeToString(new byte[32]), "").encrypt(SECRET))
        .param(UUID.fromString(id))
        .update();

    contact("unsealable@example.com");

    await().atMost(Patience.EVENTUALLY).until(() -> !subscription(id).get("is_active").asBoolean());
    JsonNode delivery = tenant.api().get(deliveriesOf(id)).at("/deliveries/0");
    assertThat(delivery.get("last_error").asString())
        .contains("the signing secret cannot be read")
        .doesNotContain(SECRET);
    assertThat(RECEIVER.received(path)).isEmpty();
  }

  @Test
  void tenConsecutiveFailuresDisableTheSubscription() {
    String path = unique("down");
    RECEIVER.answer(path, 500);
    String id = subscribe(path, List.of("contact.created"), null);

    contact("down@example.com");

    await().atMost(Patience.EVENTUALLY).until(() -> !subscription(id).get("is_active").asBoolean());
    // the remaining attempts of the schedule find it disabled: still 10 a while later
    await()
        .during(Duration.ofMillis(1_500))
        .atMost(Patience.EVENTUALLY)
        .until(() -> RECEIVER.received(path).size() == 10);
    assertThat(subscription(id).get("failure_count").asInt()).isEqualTo(10);
    JsonNode delivery =
        tenant
            .api()
            .get("/api/v1/webhooks/subscriptions/" + id + "/deliveries")
            .at("/deliveries/0");
    assertThat(delivery.get("status").asString()).isEqualTo("stopped");
    assertThat(delivery.get("last_status_code").asInt()).isEqualTo(500);

    contact("after@example.com"); // nothing more is sent to a disabled subscription
    await()
        .during(Duration.ofMillis(1_500))
        .atMost(Patience.EVENTUALLY)
        .until(() -> RECEIVER.received(path).size() == 10);

    ApiResponse enabled =
        tenant.api().patch("/api/v1/webhooks/subscriptions/" + id, Map.of("is_active", true));
    assertThat(enabled.at("/subscription/is_active").asBoolean()).isTrue();
    assertThat(enabled.at("/subscription/failure_count").asInt()).isZero();
  }

  /**
   * Subscribes the path and makes a delivery whose first attempt is still on its way (answered 3 s
   * later) when its workflow is terminated, as an operator would; returns the subscription's id.
   */
  private String subscriptionWithADeliveryTerminated(String path, String email) {
    RECEIVER.answerOnce(path, 200, 3_000);
    String id = subscribe(path, List.of("contact.created"), null);
    contact(email);
    await().atMost(Patience.EVENTUALLY).until(() -> RECEIVER.received(path).size() == 1);
    String deliveryId = tenant.api().get(deliveriesOf(id)).text("/deliveries/0/id");
    temporal.newUntypedWorkflowStub("delivery-" + deliveryId).terminate("stopped by an operator");
    return id;
  }

  private static String deliveriesOf(String subscriptionId) {
    return "/api/v1/webhooks/subscriptions/" + subscriptionId + "/deliveries";
  }

  @Test
  void aDeliveryWhoseWorkflowIsTerminatedInTemporalEndsStoppedSayingSo() {
    String path = unique("terminated");
    String id = subscriptionWithADeliveryTerminated(path, "terminated@example.com");
    String deliveries = deliveriesOf(id);

    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> {
              sweep.checkNextBatches(Duration.ZERO);
              return !tenant.api().get(deliveries).text("/deliveries/0/status").equals("pending");
            });

    String why = "The workflow was terminated in Temporal: stopped by an operator";
    JsonNode stopped = tenant.api().get(deliveries).at("/deliveries/0");
    assertThat(stopped.get("status").asString()).isEqualTo("stopped");
    assertThat(stopped.get("last_error").asString()).isEqualTo(why);
    // the attempt on its way is recorded when it ends, and leaves the stopped delivery as it is
    await().atMost(Patience.EVENTUALLY).until(() -> attemptCount(id) == 1);
    JsonNode after = tenant.api().get(deliveries).at("/deliveries/0");
    assertThat(after.get("status").asString()).isEqualTo("stopped");
    assertThat(after.get("last_error").asString()).isEqualTo(why);
    assertThat(RECEIVER.received(path)).hasSize(1);
  }

  private int attemptCount(String subscriptionId) {
    return jdbc.sql(
            """
            select count(*) from webhook_delivery_attempt a
            join webhook_delivery d on d.id = a.delivery_id
            where d.subscription_id = cast(:s as uuid)
            """)
        .param("s", subscriptionId)
        .query(Integer.class)
        .single();
  }

  @Test
  void aRedirectWhoseLocationHoldsANulIsRecordedAsAFailedAttempt() {
    // the attempt's error quotes the Location, which PostgreSQL cannot store with a NUL in it:
    // the attempt was never recorded, and the delivery's activity failed again and again
    String path = unique("nul-location");
    RECEIVER.redirect(path, "https://127.0.0.1/a" + (char) 0 + "b");
    String id = subscribe(path, List.of("contact.created"), null);

    contact("nul-location@example.com");

    await()
        .atMost(Patience.EVENTUALLY)
        .until(() -> subscription(id).get("failure_count").asInt() >= 1);
    assertThat(attemptError(id, 1))
        .isEqualTo("redirect to https://127.0.0.1/a\uFFFDb (not followed)");
  }

  @Test
  void timeoutRedirectAndRefusedConnectionCountAsFailures() throws Exception {
    String slow = unique("slow");
    RECEIVER.answerOnce(slow, 200, 11_000); // past the 10-second timeout, then fine
    String slowId = subscribe(slow, List.of("contact.created"), null);
    String moved = unique("moved");
    RECEIVER.answer(moved, 302);
    String movedId = subscribe(moved, List.of("contact.created"), null);
    RefusedPort closed = new RefusedPort();
    String refusedId =
        tenant
            .api()
            .post(
                "/api/v1/webhooks/subscribe",
                Map.of(
                    "url",
                    "https://127.0.0.1:" + closed.port() + "/nobody",
                    "events",
                    List.of("contact.created")))
            .text("/subscription/id");

    contact("kinds@example.com");

    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                !subscription(movedId).get("is_active").asBoolean()
                    && !subscription(refusedId).get("is_active").asBoolean());
    assertThat(RECEIVER.received(moved)).hasSize(10);
    assertThat(RECEIVER.received("/redirected")).isEmpty();
    assertThat(attemptError(movedId, 1)).contains("redirect").contains("not followed");
    assertThat(subscription(refusedId).get("failure_count").asInt()).isEqualTo(10);
    assertThat(attemptError(refusedId, 1))
        .isEqualTo("could not connect to 127.0.0.1: the connection was refused");
    closed.close();

    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                "delivered"
                    .equals(
                        tenant
                            .api()
                            .get("/api/v1/webhooks/subscriptions/" + slowId + "/deliveries")
                            .at("/deliveries/0/status")
                            .asString()));
    assertThat(attemptError(slowId, 1)).contains("within 10 s");
    assertThat(RECEIVER.received(slow)).hasSize(2);
    assertThat(
            Duration.between(
                RECEIVER.received(slow).get(0).at(), RECEIVER.received(slow).get(1).at()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(10));
  }

  private String attemptError(String subscriptionId, int attempt) {
    return jdbc.sql(
            """
            select a.error from webhook_delivery_attempt a
            join webhook_delivery d on d.id = a.delivery_id
            where d.subscription_id = cast(:s as uuid) and a.attempt = :n
            """)
        .param("s", subscriptionId)
        .param("n", attempt)
        .query(String.class)
        .single();
  }

  @Test
  void concurrentFailingDeliveriesLoseNoCount() {
    String path = unique("busy");
    RECEIVER.answer(path, 503);
    String id = subscribe(path, List.of("contact.created"), null);
    for (int i = 0; i < 6; i++) {
      contact("busy-" + i + "@example.com");
    }

    await().atMost(Patience.EVENTUALLY).until(() -> !subscription(id).get("is_active").asBoolean());
    await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () ->
                jdbc.sql(
                            "select count(*) from webhook_delivery"
                                + " where subscription_id = cast(:s as uuid) and status = 'pending'")
                        .param("s", id)
                        .query(Long.class)
                        .single()
                    == 0);
    long attempts =
        jdbc.sql(
                """
                select count(*) from webhook_delivery_attempt a
                join webhook_delivery d on d.id = a.delivery_id
                where d.subscription_id = cast(:s as uuid)
                """)
            .param("s", id)
            .query(Long.class)
            .single();
    assertThat(attempts).isGreaterThanOrEqualTo(10);
    assertThat(subscription(id).get("failure_count").asLong()).isEqualTo(attempts);
    assertThat(RECEIVER.received(path)).hasSize((int) attempts);
  }

  /**
   * An attempt is recorded (the delivery's row, then the subscription's count) while a PATCH moves
   * the subscription (its row, then its pending deliveries): the attempt takes the subscription's
   * row first too, so it waits for the change instead of deadlocking with it.
   */
  @Test
  void anAttemptRecordedWhileItsSubscriptionChangesWaitsForTheChange() throws Exception {
    String path = unique("moving");
    UUID subscriptionId = UUID.fromString(subscribe(path, List.of("contact.created"), SECRET));
    // a delivery no workflow carries (started), attempted by the test itself
    UUID deliveryId = UUID.randomUUID();
    jdbc.sql(
            """
            insert into webhook_delivery (id, tenant_id, subscription_id, event_id, event, body,
                                          destination_version, workflow_started)
            select :id, tenant_id, id, :eventId, 'contact.created', '{}', destination_version, true
            from webhook_subscription where id = :subscription
            """)
        .param("id", deliveryId)
        .param("eventId", UUID.randomUUID())
        .param("subscription", subscriptionId)
        .update();

    AttemptOutcome outcome;
    try (Connection patch = dataSource.getConnection()) {
      patch.setAutoCommit(false);
      update(
          patch, "update webhook_subscription set updated_at = now() where id = ?", subscriptionId);
      CompletableFuture<AttemptOutcome> attempted =
          CompletableFuture.supplyAsync(() -> webhookActivities.attempt(deliveryId.toString(), 1));
      awaitSomeoneWaitingFor(jdbc, backendPid(patch));
      update(
          patch,
          "update webhook_delivery set status = 'stopped', last_error = 'moved'"
              + " where subscription_id = ? and status = 'pending'",
          subscriptionId);
      patch.commit();
      outcome = attempted.get(30, TimeUnit.SECONDS);
    }

    assertThat(outcome.result()).isEqualTo(AttemptOutcome.DELIVERED);
    assertThat(RECEIVER.received(path)).hasSize(1);
    assertThat(
            jdbc.sql("select result from webhook_delivery_attempt where delivery_id = :id")
                .param("id", deliveryId)
                .query(String.class)
                .list())
        .as("the attempt is recorded once the change committed")
        .containsExactly(AttemptOutcome.DELIVERED);
    assertThat(
            jdbc.sql("select status from webhook_delivery where id = :id")
                .param("id", deliveryId)
                .query(String.class)
                .single())
        .as("the change ended the delivery; the attempt recorded after it leaves it so")
        .isEqualTo("stopped");
    assertThat(subscription(subscriptionId.toString()).get("last_triggered_at").isNull()).isFalse();
  }

  @Test
  void atMostTenActiveSubscriptionsAlsoUnderConcurrentCreates() throws Exception {
    var pool = java.util.concurrent.Executors.newFixedThreadPool(15);
    List<java.util.concurrent.Future<ApiResponse>> answers = new java.util.ArrayList<>();
    for (int i = 0; i < 15; i++) {
      String path = "/limit-" + i;
      answers.add(
          pool.submit(
              () ->
                  tenant
                      .api()
                      .post(
                          "/api/v1/webhooks/subscribe",
                          Map.of(
                              "url", RECEIVER.url(path), "events", List.of("contact.created")))));
    }
    int created = 0;
    int refused = 0;
    for (var answer : answers) {
      ApiResponse response = answer.get();
      if (response.status() == 201) {
        created++;
      } else {
        assertThat(response.status()).isEqualTo(422);
        assertThat(response.at("/detail").asString()).contains("at most 10");
        refused++;
      }
    }
    pool.shutdown();
    assertThat(created).isEqualTo(10);
    assertThat(refused).isEqualTo(5);
    JsonNode listed = tenant.api().get("/api/v1/webhooks/subscribe").at("/subscriptions");
    assertThat(listed.size()).isEqualTo(10);

    String first = listed.get(0).get("id").asString();
    tenant.api().patch("/api/v1/webhooks/subscriptions/" + first, Map.of("is_active", false));
    subscribe("/limit-again", List.of("contact.created"), null); // room again
    ApiResponse reEnable =
        tenant.api().patch("/api/v1/webhooks/subscriptions/" + first, Map.of("is_active", true));
    assertThat(reEnable.status()).isEqualTo(422);
  }
}
