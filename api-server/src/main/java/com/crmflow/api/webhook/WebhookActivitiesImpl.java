package com.crmflow.api.webhook;

import com.crmflow.shared.outbound.CauseHeader;
import com.crmflow.shared.outbound.ForbiddenDestinationException;
import com.crmflow.shared.outbound.NetworkErrors;
import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.webhook.AttemptOutcome;
import com.crmflow.workflow.webhook.WebhookActivities;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One delivery attempt: POST the stored body with its signature, delivery id and event headers, and
 * for an event a run's write produced its cause ({@link CauseHeader}, a token made for the
 * attempt), 10 seconds at most, no redirects. Only a 2xx is a success. The attempt, the delivery's
 * last status and the subscription's failure count are recorded in one transaction, once per
 * attempt number.
 */
@Component("webhookActivities")
class WebhookActivitiesImpl implements WebhookActivities {

  static final String DELIVERY_HEADER = "X-Service-Delivery";
  static final String EVENT_HEADER = "X-Service-Event";
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final int MAX_ANSWER_BYTES = 64 * 1024;

  private final WebhookRepository webhooks;
  private final SecretCipher cipher;
  private final OutboundHttpClient http;
  private final TransactionTemplate transaction;
  private final CauseHeader causes;

  WebhookActivitiesImpl(
      WebhookRepository webhooks,
      SecretCipher cipher,
      OutboundHttpClient http,
      TransactionTemplate transaction,
      CauseHeader causes) {
    this.causes = causes;
    this.webhooks = webhooks;
    this.cipher = cipher;
    this.http = http;
    this.transaction = transaction;
  }

  @Override
  public AttemptOutcome attempt(String deliveryId, int attempt) {
    UUID id = UUID.fromString(deliveryId);
    Optional<String[]> recorded = webhooks.recordedAttempt(id, attempt);
    if (recorded.isPresent()) {
      String[] r = recorded.get();
      return new AttemptOutcome(r[0], r[1] == null ? null : Integer.valueOf(r[1]), r[2]);
    }
    Optional<WebhookRepository.Target> found = webhooks.target(id);
    if (found.isEmpty() || !found.get().active()) {
      return new AttemptOutcome(
          AttemptOutcome.STOPPED,
          null,
          found.isEmpty() ? "the subscription was deleted" : "the subscription is disabled");
    }
    WebhookRepository.Target target = found.get();
    if (!target.pending()) {
      return new AttemptOutcome(AttemptOutcome.STOPPED, null, "the delivery was ended");
    }
    if (!target.sameDestination()) {
      // the change's transaction ended it; this covers a delivery stored meanwhile
      String why = DestinationChange.RECORDED_BEFORE;
      webhooks.stop(id, why);
      return new AttemptOutcome(AttemptOutcome.STOPPED, null, why);
    }
    AttemptOutcome outcome = send(target);
    transaction.executeWithoutResult(
        tx -> {
          // the subscription's row before the delivery's, as its PATCH and DELETE take them: an
          // attempt recorded while its destination changes waits for the change, no deadlock
          if (webhooks.lockSubscription(target.subscriptionId())
              && webhooks.recordAttempt(
                  id, attempt, outcome.result(), outcome.statusCode(), outcome.error())) {
            webhooks.countAttempt(
                target.subscriptionId(), AttemptOutcome.DELIVERED.equals(outcome.result()));
          }
        });
    return outcome;
  }

  private AttemptOutcome send(WebhookRepository.Target target) {
    byte[] body = target.body().getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("User-Agent", "crmflow-webhooks/1.0");
    headers.put(DELIVERY_HEADER, target.deliveryId().toString());
    headers.put(EVENT_HEADER, target.event());
    CauseHeader.Cause.parse(target.cause())
        .flatMap(run -> causes.value(target.tenantId(), run))
        .ifPresent(token -> headers.put(CauseHeader.NAME, token));
    if (target.secretCiphertext() != null) {
      String secret;
      try {
        secret = cipher.decrypt(target.secretCiphertext());
      } catch (IllegalStateException unreadable) {
        return new AttemptOutcome(
            AttemptOutcome.FAILED,
            null,
            "the signing secret cannot be read ("
                + unreadable.getMessage()
                + "): set the subscription's secret again");
      }
      headers.put(WebhookSignature.HEADER, WebhookSignature.sign(secret, body));
    }
    try {
      OutboundHttpClient.Response response =
          http.send("POST", URI.create(target.url()), headers, body, TIMEOUT, MAX_ANSWER_BYTES);
      if (response.status() >= 200 && response.status() < 300) {
        return new AttemptOutcome(AttemptOutcome.DELIVERED, response.status(), null);
      }
      String error =
          response.status() >= 300 && response.status() < 400
              ? "redirect to " + response.header("Location").orElse("?") + " (not followed)"
              : "HTTP " + response.status();
      return new AttemptOutcome(AttemptOutcome.FAILED, response.status(), error);
    } catch (ForbiddenDestinationException e) {
      return new AttemptOutcome(AttemptOutcome.FAILED, null, "refused: " + e.getMessage());
    } catch (IOException e) {
      return new AttemptOutcome(
          AttemptOutcome.FAILED,
          null,
          NetworkErrors.describe(e, URI.create(target.url()).getHost()));
    } catch (IllegalArgumentException e) {
      return new AttemptOutcome(AttemptOutcome.FAILED, null, "invalid URL: " + e.getMessage());
    }
  }

  @Override
  public void finish(String deliveryId, String status) {
    webhooks.finishDelivery(UUID.fromString(deliveryId), status);
  }
}
