package com.crmflow.api.nodetype;

import com.crmflow.shared.secret.SecretCipher;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

/**
 * The activity as a node type's jar carries it: the process's {@link SecretCipher} opens the key
 * here, on the worker that polls the integrations queue, and nowhere else.
 */
public class PartnerNoticeActivitiesImpl implements PartnerNoticeActivities {

  private final SecretCipher cipher;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public PartnerNoticeActivitiesImpl(SecretCipher cipher) {
    this.cipher = cipher;
  }

  @Override
  public int post(Notice notice) {
    String key = cipher.unseal(UUID.fromString(notice.tenantId()), notice.apiKey());
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(notice.url()))
            .timeout(Duration.ofSeconds(10))
            .header("X-Api-Key", key)
            .header("X-Run-Id", notice.runId())
            .POST(HttpRequest.BodyPublishers.ofString(notice.note()))
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException failure) {
      throw ApplicationFailure.newFailure(failure.getMessage(), "partner_unreachable");
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw ApplicationFailure.newFailure("interrupted", "partner_unreachable");
    }
  }
}
