package com.crmflow.api.apikey;

import java.sql.Array;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class ApiKeyRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, name, prefix, scopes, rate_limit_per_minute, created_at, last_used_at,
      revoked_at
      """;

  private static final RowMapper<ApiKey> API_KEY =
      (rs, row) ->
          new ApiKey(
              rs.getObject("id", UUID.class),
              rs.getObject("tenant_id", UUID.class),
              rs.getString("name"),
              rs.getString("prefix"),
              strings(rs.getArray("scopes")),
              (Integer) rs.getObject("rate_limit_per_minute"),
              rs.getObject("created_at", OffsetDateTime.class),
              rs.getObject("last_used_at", OffsetDateTime.class),
              rs.getObject("revoked_at", OffsetDateTime.class));

  private final JdbcClient jdbc;

  ApiKeyRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  ApiKey insert(
      UUID tenantId,
      String name,
      String prefix,
      String keyHash,
      List<String> scopes,
      Integer rateLimitPerMinute) {
    return jdbc.sql(
            """
            insert into api_key (id, tenant_id, name, prefix, key_hash, scopes,
                                 rate_limit_per_minute)
            values (:id, :tenantId, :name, :prefix, :keyHash, :scopes::text[], :rateLimit)
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("name", name)
        .param("prefix", prefix)
        .param("keyHash", keyHash)
        .param("scopes", scopes.toArray(String[]::new))
        .param("rateLimit", rateLimitPerMinute)
        .query(API_KEY)
        .single();
  }

  /** The live (not revoked) key with this hash. */
  Optional<ApiKey> findActiveByHash(String keyHash) {
    return jdbc.sql(
            "select %s from api_key where key_hash = :keyHash and revoked_at is null"
                .formatted(COLUMNS))
        .param("keyHash", keyHash)
        .query(API_KEY)
        .optional();
  }

  boolean existsByHash(String keyHash) {
    return jdbc.sql("select exists (select 1 from api_key where key_hash = :keyHash)")
        .param("keyHash", keyHash)
        .query(Boolean.class)
        .single();
  }

  List<ApiKey> listByTenant(UUID tenantId) {
    return jdbc.sql(
            "select %s from api_key where tenant_id = :tenantId order by created_at desc, id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .query(API_KEY)
        .list();
  }

  /** Revokes the key (once: a second revocation keeps the first time); empty if not found. */
  Optional<ApiKey> revoke(UUID tenantId, UUID keyId) {
    return jdbc.sql(
            """
            update api_key set revoked_at = coalesce(revoked_at, now())
            where tenant_id = :tenantId and id = :id
            returning %s
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", keyId)
        .query(API_KEY)
        .optional();
  }

  String hashOf(UUID keyId) {
    return jdbc.sql("select key_hash from api_key where id = :id")
        .param("id", keyId)
        .query(String.class)
        .single();
  }

  /** Records use, at most every 30 s per key, so busy keys do not write on every request. */
  void touch(UUID keyId) {
    jdbc.sql(
            """
            update api_key set last_used_at = now()
            where id = :id and (last_used_at is null or last_used_at < now() - interval '30 seconds')
            """)
        .param("id", keyId)
        .update();
  }

  private static List<String> strings(Array array) throws SQLException {
    return array == null ? List.of() : List.of((String[]) array.getArray());
  }
}
