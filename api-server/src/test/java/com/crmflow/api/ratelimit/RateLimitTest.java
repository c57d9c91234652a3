package com.crmflow.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitTest extends ApiTest {

  @Test
  void aKeyOverItsBudgetGets429WithRetryAfterWhileOtherKeysGoOn() {
    var tenant = newTenant();
    var limited = keyFor(tenant.id(), List.of("contacts:read"), 5);
    var neighbour = keyFor(tenant.id(), List.of("contacts:read"), 5);

    for (int i = 0; i < 5; i++) {
      ApiResponse ok = limited.get("/api/v1/contacts");
      assertThat(ok.status()).isEqualTo(200);
      assertThat(ok.header("RateLimit-Limit")).isEqualTo("5");
      assertThat(ok.header("RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
      assertThat(ok.header("RateLimit-Policy")).isEqualTo("\"api-key\";q=5;w=60");
      assertThat(ok.header("RateLimit")).startsWith("\"api-key\";r=" + (4 - i) + ";t=");
    }
    ApiResponse refused = limited.get("/api/v1/contacts");
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 60);
    assertThat(refused.header("RateLimit-Remaining")).isEqualTo("0");
    assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"api-key\";q=5;w=60");
    assertThat(refused.header("RateLimit")).matches("\"api-key\";r=0;t=\\d+");
    assertThat(refused.text("/detail")).contains("5 requests per minute");

    assertThat(neighbour.get("/api/v1/contacts").status()).isEqualTo(200);
  }
}
