package com.crmflow.api.trigger;

import com.crmflow.api.ratelimit.PerKeyLimiter;
import com.crmflow.api.ratelimit.TokenBuckets;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.tenant.TenantRepository;
import com.crmflow.api.tenant.TriggerQuota;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Each tenant's quota of public trigger calls: a token bucket per tenant, of the tenant's own quota
 * (admin API) or the default ({@code crm.trigger.quota}). A tenant's own quota is read from the
 * database at most every {@link #REREAD_AFTER}; the instance that sets it applies it at once. The
 * buckets are {@link TokenBuckets}': shared by every api-server with {@code crm.buckets.shared}, so
 * that a tenant gets its quota once however many api-servers its calls reach.
 */
@Component
public class TriggerQuotas {

  /** The policy's name in the RateLimit fields. */
  public static final String POLICY = "trigger";

  static final Duration REREAD_AFTER = Duration.ofSeconds(5);

  /**
   * What one call found.
   *
   * @param quota the quota in force for the tenant
   * @param decision the bucket's answer
   */
  public record Check(TriggerQuota quota, PerKeyLimiter.Decision decision) {

    public String policyField() {
      return PerKeyLimiter.policyField(POLICY, quota.requests(), quota.windowSeconds());
    }

    public String limitField() {
      return PerKeyLimiter.limitField(POLICY, decision);
    }
  }

  private final CrmProperties.Trigger.Quota settings;
  private final TenantRepository tenants;
  private final PerKeyLimiter limiter;
  private final Cache<UUID, Optional<TriggerQuota>> own =
      Caffeine.newBuilder().expireAfterWrite(REREAD_AFTER).maximumSize(100_000).build();

  TriggerQuotas(CrmProperties properties, TenantRepository tenants, TokenBuckets buckets) {
    this.settings = properties.trigger().quota();
    this.tenants = tenants;
    this.limiter = buckets.limiter(POLICY);
  }

  /** Whether trigger calls are limited per tenant at all (crm.trigger.quota.enabled). */
  public boolean enabled() {
    return settings.enabled();
  }

  /** The configured default quota. */
  public TriggerQuota defaultQuota() {
    return new TriggerQuota(settings.requests(), (int) settings.window().getSeconds());
  }

  /** The tenant's own quota, if it has one. */
  public Optional<TriggerQuota> ownQuota(UUID tenant) {
    return own.get(tenant, tenants::triggerQuota);
  }

  /** The quota in force for the tenant: its own, or the default. */
  public TriggerQuota quotaOf(UUID tenant) {
    return ownQuota(tenant).orElseGet(this::defaultQuota);
  }

  /**
   * Takes one call from the tenant's bucket. While its own quota cannot be read (the database is
   * unreachable) the default applies: the call is still limited, and the trigger's own answer says
   * what is wrong with the database, not a filter's 500.
   */
  public Check take(UUID tenant) {
    TriggerQuota quota;
    try {
      quota = quotaOf(tenant);
    } catch (DataAccessException unreadable) {
      quota = defaultQuota();
    }
    return new Check(
        quota,
        limiter.tryConsume(tenant, quota.requests(), Duration.ofSeconds(quota.windowSeconds())));
  }

  /** Sets (or with null removes) the tenant's own quota; false when there is no such tenant. */
  public boolean set(UUID tenant, TriggerQuota quota) {
    boolean found = tenants.setTriggerQuota(tenant, quota);
    own.invalidate(tenant);
    return found;
  }
}
