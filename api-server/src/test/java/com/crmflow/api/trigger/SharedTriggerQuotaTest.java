package com.crmflow.api.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.ratelimit.TokenBuckets;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.tenant.TenantRepository;
import com.crmflow.api.tenant.TriggerQuota;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The tenant trigger quota of two api-servers sharing their buckets (crm.buckets.shared): a
 * tenant's calls spread over both are held to its quota once, not once per api-server.
 */
class SharedTriggerQuotaTest extends ApiTest {

  @Autowired private DataSource dataSource;
  @Autowired private CrmProperties properties;
  @Autowired private TenantRepository tenants;

  private TriggerQuotas apiServer() {
    return new TriggerQuotas(
        properties,
        tenants,
        new TokenBuckets(
            new CrmProperties.Buckets(true, 0, Duration.ofSeconds(1), Duration.ofMinutes(1)),
            dataSource));
  }

  @Test
  void aTenantsCallsSpreadOverTwoApiServersAreHeldToItsQuotaOnce() {
    TenantClient tenant = newTenant();
    TriggerQuotas one = apiServer();
    TriggerQuotas two = apiServer();
    assertThat(one.set(tenant.id(), new TriggerQuota(6, 3600))).isTrue();

    List<TriggerQuotas.Check> checks = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      checks.add((i % 2 == 0 ? one : two).take(tenant.id()));
    }
    assertThat(checks.stream().filter(c -> c.decision().allowed()))
        .as("six calls of ten let in, three through each")
        .hasSize(6);
    assertThat(checks.subList(0, 6)).allMatch(c -> c.decision().allowed());
    assertThat(checks.get(5).limitField()).startsWith("\"trigger\";r=0;t=");
    assertThat(checks.get(6).decision().allowed()).isFalse();
    assertThat(checks.get(7).policyField()).isEqualTo("\"trigger\";q=6;w=3600");
    assertThat(checks.get(7).decision().retryAfterSeconds()).isBetween(500L, 600L);
    // another tenant's bucket is its own
    TenantClient other = newTenant();
    assertThat(two.take(other.id()).decision().remaining())
        .isEqualTo(properties.trigger().quota().requests() - 1);
  }
}
