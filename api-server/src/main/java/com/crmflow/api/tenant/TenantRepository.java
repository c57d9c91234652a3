package com.crmflow.api.tenant;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class TenantRepository {

  private final JdbcClient jdbc;

  TenantRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public Tenant create(String name) {
    return jdbc.sql(
            """
            insert into tenant (id, name) values (:id, :name)
            returning id, name, is_default, created_at, default_timezone
            """)
        .param("id", UUID.randomUUID())
        .param("name", name)
        .query(Tenant.class)
        .single();
  }

  /** The bootstrap tenant, created at most once (a unique index guards concurrent starts). */
  public Tenant findOrCreateDefault() {
    jdbc.sql(
            """
            insert into tenant (id, name, is_default) values (:id, 'default', true)
            on conflict (is_default) where is_default do nothing
            """)
        .param("id", UUID.randomUUID())
        .update();
    return jdbc.sql(
            "select id, name, is_default, created_at, default_timezone from tenant where is_default")
        .query(Tenant.class)
        .single();
  }

  public Optional<Tenant> find(UUID id) {
    return jdbc.sql(
            "select id, name, is_default, created_at, default_timezone from tenant where id = :id")
        .param("id", id)
        .query(Tenant.class)
        .optional();
  }

  public boolean exists(UUID id) {
    return find(id).isPresent();
  }

  public List<Tenant> list() {
    return jdbc.sql(
            """
            select id, name, is_default, created_at, default_timezone from tenant
            order by created_at, id
            """)
        .query(Tenant.class)
        .list();
  }

  /** The tenant's own trigger quota; empty when it has none (or no such tenant). */
  public Optional<TriggerQuota> triggerQuota(UUID id) {
    return jdbc.sql(
            """
            select trigger_quota_requests as requests,
                   trigger_quota_window_seconds as window_seconds
            from tenant where id = :id and trigger_quota_requests is not null
            """)
        .param("id", id)
        .query(TriggerQuota.class)
        .optional();
  }

  /**
   * Sets the tenant's own trigger quota, or removes it (null: the default applies).
   *
   * @return whether the tenant exists
   */
  public boolean setTriggerQuota(UUID id, TriggerQuota quota) {
    return jdbc.sql(
                """
                update tenant
                set trigger_quota_requests = :requests,
                    trigger_quota_window_seconds = :window
                where id = :id
                """)
            .param("id", id)
            .param("requests", quota == null ? null : quota.requests(), java.sql.Types.INTEGER)
            .param("window", quota == null ? null : quota.windowSeconds(), java.sql.Types.INTEGER)
            .update()
        == 1;
  }

  /** Sets the tenant's time zone; empty when there is no such tenant. */
  public Optional<Tenant> setDefaultTimezone(UUID id, String zone) {
    return jdbc.sql(
            """
            update tenant set default_timezone = :zone where id = :id
            returning id, name, is_default, created_at, default_timezone
            """)
        .param("id", id)
        .param("zone", zone)
        .query(Tenant.class)
        .optional();
  }

  /** The tenant's time zone (UTC for an unknown tenant). */
  public String defaultTimezone(UUID id) {
    return jdbc.sql("select default_timezone from tenant where id = :id")
        .param("id", id)
        .query(String.class)
        .optional()
        .orElse("UTC");
  }

  public boolean any() {
    return jdbc.sql("select exists (select 1 from tenant)").query(Boolean.class).single();
  }
}
