package com.crmflow.api.webhook;

import com.crmflow.shared.text.NulCharacters;
import io.swagger.v3.oas.annotations.media.Schema;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class WebhookRepository {

  /** Consecutive failed attempts that disable a subscription (the spec's rule). */
  static final int DISABLE_AFTER_FAILURES = 10;

  private static final String COLUMNS =
      """
      id, tenant_id, url, events, secret_ciphertext is not null as has_secret, is_active,
      failure_count, last_triggered_at, created_at
      """;

  private static final RowMapper<WebhookSubscription> MAPPER =
      (rs, row) ->
          new WebhookSubscription(
              rs.getObject("id", UUID.class),
              rs.getObject("tenant_id", UUID.class),
              rs.getString("url"),
              events(rs),
              rs.getBoolean("has_secret"),
              rs.getBoolean("is_active"),
              rs.getInt("failure_count"),
              rs.getObject("last_triggered_at", OffsetDateTime.class),
              rs.getObject("created_at", OffsetDateTime.class));

  private final JdbcClient jdbc;

  WebhookRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  private static List<String> events(ResultSet rs) throws SQLException {
    Array array = rs.getArray("events");
    return Arrays.asList((String[]) array.getArray());
  }

  /** Serialises subscription changes of one tenant (the active limit holds under concurrency). */
  void lockTenant(UUID tenantId) {
    jdbc.sql("select pg_advisory_xact_lock(hashtext('webhook-subscriptions:' || :tenantId))")
        .param("tenantId", tenantId.toString())
        .query(Object.class)
        .single();
  }

  int countActive(UUID tenantId) {
    return jdbc.sql(
            "select count(*) from webhook_subscription where tenant_id = :tenantId and is_active")
        .param("tenantId", tenantId)
        .query(Integer.class)
        .single();
  }

  WebhookSubscription insert(UUID tenantId, String url, List<String> events, byte[] secret) {
    return jdbc.sql(
            """
            insert into webhook_subscription (id, tenant_id, url, events, secret_ciphertext)
            values (:id, :tenantId, :url, :events, :secret)
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("url", url)
        .param("events", events.toArray(String[]::new))
        .param("secret", secret)
        .query(MAPPER)
        .single();
  }

  List<WebhookSubscription> list(UUID tenantId) {
    return jdbc.sql(
            "select %s from webhook_subscription where tenant_id = :tenantId order by created_at, id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .query(MAPPER)
        .list();
  }

  Optional<WebhookSubscription> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from webhook_subscription where tenant_id = :tenantId and id = :id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(MAPPER)
        .optional();
  }

  /**
   * Applies a PATCH: null arguments keep the field; {@code clearSecret} removes the secret;
   * re-enabling ({@code active} true on an inactive subscription) resets failure_count; {@code
   * destinationChanged} (a new url or secret) counts up the destination version, which the pending
   * deliveries made under the previous one no longer match.
   */
  WebhookSubscription update(
      UUID tenantId,
      UUID id,
      String url,
      List<String> events,
      byte[] secret,
      boolean clearSecret,
      Boolean active,
      boolean destinationChanged) {
    return jdbc.sql(
            """
            update webhook_subscription set
                url = coalesce(:url, url),
                events = coalesce(:events, events),
                secret_ciphertext = case when :clearSecret then null
                                         else coalesce(:secret, secret_ciphertext) end,
                failure_count = case when :active and not is_active then 0 else failure_count end,
                is_active = coalesce(:active, is_active),
                destination_version = destination_version
                                      + case when :destinationChanged then 1 else 0 end,
                destination_changed_at = case when :destinationChanged then now()
                                              else destination_changed_at end,
                updated_at = now()
            where tenant_id = :tenantId and id = :id
            returning %s
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .param("url", url)
        .param("events", events == null ? null : events.toArray(String[]::new))
        .param("secret", secret)
        .param("clearSecret", clearSecret)
        .param("active", active)
        .param("destinationChanged", destinationChanged)
        .query(MAPPER)
        .single();
  }

  /** The events of the subscription's pending deliveries (what a change of it would affect). */
  List<String> pendingEvents(UUID tenantId, UUID subscriptionId) {
    return jdbc.sql(
            """
            select distinct event from webhook_delivery
            where tenant_id = :tenantId and subscription_id = :id and status = 'pending'
            order by event
            """)
        .param("tenantId", tenantId)
        .param("id", subscriptionId)
        .query(String.class)
        .list();
  }

  /**
   * Ends the subscription's pending deliveries made under an earlier destination version as
   * stopped, saying why.
   *
   * @return how many it ended
   */
  int stopPendingOfEarlierDestinations(UUID subscriptionId, String why) {
    return jdbc.sql(
            """
            update webhook_delivery d set status = 'stopped', last_error = :why,
                                          completed_at = now()
            from webhook_subscription s
            where s.id = :id and d.subscription_id = s.id and d.status = 'pending'
              and d.destination_version <> s.destination_version
            """)
        .param("id", subscriptionId)
        .param("why", why)
        .update();
  }

  boolean delete(UUID tenantId, UUID id) {
    return jdbc.sql("delete from webhook_subscription where tenant_id = :tenantId and id = :id")
            .param("tenantId", tenantId)
            .param("id", id)
            .update()
        == 1;
  }

  /** The active subscriptions of the tenant that want this event. */
  List<UUID> wanting(UUID tenantId, String event) {
    return jdbc.sql(
            """
            select id from webhook_subscription
            where tenant_id = :tenantId and is_active and :event = any(events)
            order by created_at, id
            """)
        .param("tenantId", tenantId)
        .param("event", event)
        .query(UUID.class)
        .list();
  }

  /**
   * A delivery as the dispatcher stored it, under the subscription's current destination version
   * (empty when this event was stored for it before). An event recorded before the subscription's
   * url or secret last changed is stored stopped, saying why: it is never sent to the new url nor
   * signed with the new secret.
   *
   * @param cause {@code <run id>:<node id>} of the run whose write produced the event, or null:
   *     each attempt sends it as a fresh {@code CRM-Cause} token
   * @return the delivery's id when it is pending (its workflow is to start)
   */
  Optional<UUID> insertDelivery(
      UUID tenantId, UUID subscriptionId, UUID eventId, String event, String body, String cause) {
    return jdbc.sql(
            """
            with recorded as (
                select coalesce((select created_at from event_outbox where event_id = :eventId),
                                now()) as at),
            judged as (
                select s.id, s.destination_version,
                       s.destination_changed_at is not null
                           and s.destination_changed_at >= recorded.at as before_change
                from webhook_subscription s, recorded
                where s.id = :subscriptionId)
            insert into webhook_delivery
                (id, tenant_id, subscription_id, event_id, event, body, cause, destination_version,
                 status, last_error, completed_at)
            select :id, :tenantId, judged.id, :eventId, :event, :body, :cause,
                   judged.destination_version,
                   case when before_change then 'stopped' else 'pending' end,
                   case when before_change then :why end,
                   case when before_change then now() end
            from judged
            on conflict (subscription_id, event_id) do nothing
            returning id, status
            """)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("subscriptionId", subscriptionId)
        .param("eventId", eventId)
        .param("event", event)
        .param("body", body)
        .param("cause", cause)
        .param("why", DestinationChange.RECORDED_BEFORE)
        .query((rs, row) -> new String[] {rs.getString("id"), rs.getString("status")})
        .optional()
        .filter(stored -> "pending".equals(stored[1]))
        .map(stored -> UUID.fromString(stored[0]));
  }

  /**
   * What an attempt needs: the delivery, its subscription's URL, secret and state.
   *
   * @param cause {@code <run id>:<node id>} of the run whose write produced the event, or null
   * @param pending whether the delivery is still pending (not ended meanwhile)
   * @param sameDestination whether the subscription's url and secret are those the delivery was
   *     made under
   */
  record Target(
      UUID deliveryId,
      UUID tenantId,
      UUID subscriptionId,
      String event,
      String body,
      String url,
      byte[] secretCiphertext,
      boolean active,
      String cause,
      boolean pending,
      boolean sameDestination) {}

  Optional<Target> target(UUID deliveryId) {
    return jdbc.sql(
            """
            select d.id, d.tenant_id, d.subscription_id, d.event, d.body, s.url,
                   s.secret_ciphertext, s.is_active, d.cause, d.status = 'pending' as pending,
                   d.destination_version = s.destination_version as same_destination
            from webhook_delivery d join webhook_subscription s on s.id = d.subscription_id
            where d.id = :id
            """)
        .param("id", deliveryId)
        .query(
            (rs, row) ->
                new Target(
                    rs.getObject("id", UUID.class),
                    rs.getObject("tenant_id", UUID.class),
                    rs.getObject("subscription_id", UUID.class),
                    rs.getString("event"),
                    rs.getString("body"),
                    rs.getString("url"),
                    rs.getBytes("secret_ciphertext"),
                    rs.getBoolean("is_active"),
                    rs.getString("cause"),
                    rs.getBoolean("pending"),
                    rs.getBoolean("same_destination")))
        .optional();
  }

  /** The highest attempt recorded for a delivery (0: none) and when it was made. */
  record AttemptsMade(int last, OffsetDateTime lastAt) {}

  AttemptsMade attemptsMade(UUID deliveryId) {
    return jdbc.sql(
            """
            select coalesce(max(attempt), 0) as last, max(attempted_at) as last_at
            from webhook_delivery_attempt where delivery_id = :id
            """)
        .param("id", deliveryId)
        .query(
            (rs, row) ->
                new AttemptsMade(rs.getInt("last"), rs.getObject("last_at", OffsetDateTime.class)))
        .single();
  }

  /** The outcome recorded for this attempt, if it was recorded. */
  Optional<String[]> recordedAttempt(UUID deliveryId, int attempt) {
    return jdbc.sql(
            """
            select result, status_code::text, error from webhook_delivery_attempt
            where delivery_id = :id and attempt = :attempt
            """)
        .param("id", deliveryId)
        .param("attempt", attempt)
        .query((rs, row) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)})
        .optional();
  }

  /**
   * Takes the subscription's row for the transaction, before any of its deliveries' rows, in the
   * order a PATCH or a DELETE of it takes them; false when it is gone (with its deliveries).
   */
  boolean lockSubscription(UUID id) {
    return jdbc.sql("select id from webhook_subscription where id = :id for no key update")
        .param("id", id)
        .query(UUID.class)
        .optional()
        .isPresent();
  }

  /** Records the attempt once; false when it was recorded already (nothing else changes then). */
  boolean recordAttempt(
      UUID deliveryId, int attempt, String result, Integer statusCode, String error) {
    String stored = NulCharacters.replaced(error); // it may quote the receiver's answer
    int inserted =
        jdbc.sql(
                """
                insert into webhook_delivery_attempt (delivery_id, attempt, result, status_code,
                                                      error)
                values (:id, :attempt, :result, :statusCode, :error)
                on conflict do nothing
                """)
            .param("id", deliveryId)
            .param("attempt", attempt)
            .param("result", result)
            .param("statusCode", statusCode)
            .param("error", stored)
            .update();
    if (inserted == 0) {
      return false;
    }
    jdbc.sql(
            """
            update webhook_delivery set attempts = :attempt, last_status_code = :statusCode,
                                        last_error = :error
            where id = :id and status = 'pending'
            """)
        .param("id", deliveryId)
        .param("attempt", attempt)
        .param("statusCode", statusCode)
        .param("error", stored)
        .update();
    return true;
  }

  /**
   * One atomic update per attempt, so concurrent deliveries never lose a count: a success resets
   * the count, a failure adds one and disables the subscription at the limit.
   */
  void countAttempt(UUID subscriptionId, boolean delivered) {
    jdbc.sql(
            delivered
                ? """
                  update webhook_subscription set failure_count = 0, last_triggered_at = now()
                  where id = :id
                  """
                : """
                  update webhook_subscription set
                      failure_count = failure_count + 1,
                      is_active = is_active and failure_count + 1 < :limit,
                      last_triggered_at = now(), updated_at = now()
                  where id = :id
                  """)
        .param("id", subscriptionId)
        .param("limit", DISABLE_AFTER_FAILURES)
        .update();
  }

  void finishDelivery(UUID deliveryId, String status) {
    jdbc.sql(
            """
            update webhook_delivery set status = :status, completed_at = now()
            where id = :id and status = 'pending'
            """)
        .param("id", deliveryId)
        .param("status", status)
        .update();
  }

  void markStarted(UUID deliveryId) {
    jdbc.sql("update webhook_delivery set workflow_started = true where id = :id")
        .param("id", deliveryId)
        .update();
  }

  /**
   * Pending deliveries whose workflow started, created over {@code olderThanSeconds} ago, by id.
   */
  List<UUID> pendingStartedAfter(UUID afterId, int olderThanSeconds, int limit) {
    return jdbc.sql(
            """
            select id from webhook_delivery
            where status = 'pending' and workflow_started and id > :afterId
              and created_at < now() - make_interval(secs => :age)
            order by id limit :limit
            """)
        .param("afterId", afterId)
        .param("age", olderThanSeconds)
        .param("limit", limit)
        .query(UUID.class)
        .list();
  }

  /** Whether the delivery is pending, its workflow started, created longer than that ago. */
  boolean pendingStarted(UUID id, int olderThanSeconds) {
    return jdbc.sql(
                """
            select count(*) from webhook_delivery
            where id = :id and status = 'pending' and workflow_started
              and created_at < now() - make_interval(secs => :age)
            """)
            .param("id", id)
            .param("age", olderThanSeconds)
            .query(Long.class)
            .single()
        > 0;
  }

  /**
   * Ends a pending delivery as stopped, saying why.
   *
   * @return false when it was no longer pending
   */
  boolean stop(UUID deliveryId, String why) {
    return jdbc.sql(
                """
                update webhook_delivery set status = 'stopped', last_error = :why,
                                            completed_at = now()
                where id = :id and status = 'pending'
                """)
            .param("id", deliveryId)
            .param("why", NulCharacters.replaced(why)) // an operator's reason, in Temporal
            .update()
        == 1;
  }

  /** Stored deliveries whose workflow has not started, oldest first. */
  List<String[]> unstarted(int olderThanSeconds, int limit) {
    return jdbc.sql(
            """
            select id::text, tenant_id::text, event from webhook_delivery
            where not workflow_started and status = 'pending'
              and created_at < now() - make_interval(secs => :age)
            order by created_at limit :limit
            """)
        .param("age", olderThanSeconds)
        .param("limit", limit)
        .query((rs, row) -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)})
        .list();
  }

  /** One delivery of an event to a subscription, and how it went. */
  public record Delivery(
      UUID id,
      String event,
      @Schema(allowableValues = {"pending", "delivered", "failed", "stopped"}) String status,
      int attempts,
      Integer lastStatusCode,
      String lastError,
      OffsetDateTime createdAt,
      OffsetDateTime completedAt) {}

  /** Deliveries of a subscription, newest first. */
  List<Delivery> deliveries(UUID subscriptionId, int limit, int offset) {
    return jdbc.sql(
            """
            select id, event, status, attempts, last_status_code, last_error, created_at,
                   completed_at
            from webhook_delivery where subscription_id = :id
            order by created_at desc, id desc limit :limit offset :offset
            """)
        .param("id", subscriptionId)
        .param("limit", limit)
        .param("offset", offset)
        .query(
            (rs, row) ->
                new Delivery(
                    rs.getObject("id", UUID.class),
                    rs.getString("event"),
                    rs.getString("status"),
                    rs.getInt("attempts"),
                    rs.getObject("last_status_code", Integer.class),
                    rs.getString("last_error"),
                    rs.getObject("created_at", OffsetDateTime.class),
                    rs.getObject("completed_at", OffsetDateTime.class)))
        .list();
  }
}
