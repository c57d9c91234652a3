package com.crmflow.api.account;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.recordfield.SqlAssignments;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class AccountRepository {

  private static final String COLUMNS =
      "id, name, domain, industry, custom_fields, created_at, updated_at";

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<Account> mapper;

  AccountRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new Account(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                rs.getString("domain"),
                rs.getString("industry"),
                json.readMap(rs.getString("custom_fields")),
                rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("updated_at", OffsetDateTime.class));
  }

  public Optional<Account> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from account where tenant_id = :tenantId and id = :id".formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  public boolean exists(UUID tenantId, UUID id) {
    return find(tenantId, id).isPresent();
  }

  /** The tenant's account of this name (case-insensitive), created if there is none. */
  /** Whether the tenant has an account of this name (case-insensitive, as findOrCreateByName). */
  public boolean existsByName(UUID tenantId, String name) {
    return jdbc.sql(
            "select exists (select 1 from account where tenant_id = :tenantId"
                + " and lower(name) = lower(:name))")
        .param("tenantId", tenantId)
        .param("name", name)
        .query(Boolean.class)
        .single();
  }

  public Account findOrCreateByName(UUID tenantId, String name) {
    // "do update" with a no-op so that the existing row is returned too
    return jdbc.sql(
            """
            insert into account (id, tenant_id, name) values (:id, :tenantId, :name)
            on conflict (tenant_id, lower(name)) do update set name = account.name
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("name", name)
        .query(mapper)
        .single();
  }

  public Account insert(UUID tenantId, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(SqlAssignments.insertWithCustomFields("account", fields.keySet(), COLUMNS))
        .params(fields)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("customFields", json.write(custom))
        .query(mapper)
        .single();
  }

  public Optional<Account> update(
      UUID tenantId, UUID id, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(SqlAssignments.updateWithCustomFields("account", fields.keySet(), COLUMNS))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .param("customFields", json.write(custom))
        .query(mapper)
        .optional();
  }

  public List<Account> list(UUID tenantId, String search, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from account
            where tenant_id = :tenantId
              and (cast(:search as text) is null or lower(name) like :search escape '\\')
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("search", search)
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }

  public long count(UUID tenantId, String search) {
    return jdbc.sql(
            """
            select count(*) from account
            where tenant_id = :tenantId
              and (cast(:search as text) is null or lower(name) like :search escape '\\')
            """)
        .param("tenantId", tenantId)
        .param("search", search)
        .query(Long.class)
        .single();
  }
}
