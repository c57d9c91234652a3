package com.crmflow.api.contact;

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
public class ContactRepository {

  private static final String COLUMNS =
      """
      id, email, first_name, last_name, phone, mobile_phone, company, title, department,
      industry, lead_source, lead_status, lifecycle_stage, address_city, address_state,
      address_country, timezone, preferred_contact_method, do_not_call, do_not_email, do_not_sms,
      account_id, custom_fields, created_at, updated_at
      """;

  private static final String LIST_FILTER =
      """
      where tenant_id = :tenantId
        and (cast(:search as text) is null or search_text like :search escape '\\')
        and (cast(:email as text) is null or email = :email)
      """;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<Contact> mapper;

  ContactRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new Contact(
                rs.getObject("id", UUID.class),
                rs.getString("email"),
                rs.getString("first_name"),
                rs.getString("last_name"),
                rs.getString("phone"),
                rs.getString("mobile_phone"),
                rs.getString("company"),
                rs.getString("title"),
                rs.getString("department"),
                rs.getString("industry"),
                rs.getString("lead_source"),
                rs.getString("lead_status"),
                rs.getString("lifecycle_stage"),
                rs.getString("address_city"),
                rs.getString("address_state"),
                rs.getString("address_country"),
                rs.getString("timezone"),
                rs.getString("preferred_contact_method"),
                rs.getBoolean("do_not_call"),
                rs.getBoolean("do_not_email"),
                rs.getBoolean("do_not_sms"),
                rs.getObject("account_id", UUID.class),
                json.readMap(rs.getString("custom_fields")),
                rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("updated_at", OffsetDateTime.class));
  }

  public Optional<Contact> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from contact where tenant_id = :tenantId and id = :id".formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  public boolean exists(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select exists (select 1 from contact where tenant_id = :tenantId and id = :id)")
        .param("tenantId", tenantId)
        .param("id", id)
        .query(Boolean.class)
        .single();
  }

  /** The contact with this (normalised) email, locked until the transaction ends. */
  public Optional<Contact> lockByEmail(UUID tenantId, String email) {
    return jdbc.sql(
            "select %s from contact where tenant_id = :tenantId and email = :email for update"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("email", email)
        .query(mapper)
        .optional();
  }

  /** Locks the contact until the transaction ends. */
  public Optional<Contact> lock(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from contact where tenant_id = :tenantId and id = :id for update"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  /** Inserts a contact unless its email exists already (then empty: a concurrent upsert won). */
  public Optional<Contact> insertIfAbsent(
      UUID tenantId, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(
            SqlAssignments.insertWithCustomFields(
                "contact", fields.keySet(), "on conflict (tenant_id, email) do nothing", COLUMNS))
        .params(fields)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("customFields", json.write(custom))
        .query(mapper)
        .optional();
  }

  public Contact update(
      UUID tenantId, UUID id, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(SqlAssignments.updateWithCustomFields("contact", fields.keySet(), COLUMNS))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .param("customFields", json.write(custom))
        .query(mapper)
        .single();
  }

  /** Newest first (ties broken by id, so pages never overlap). */
  public List<Contact> list(
      UUID tenantId, String searchPattern, String email, int limit, int offset) {
    return jdbc.sql(
            """
            select %s from contact
            %s
            order by created_at desc, id desc
            limit :limit offset :offset
            """
                .formatted(COLUMNS, LIST_FILTER))
        .param("tenantId", tenantId)
        .param("search", searchPattern)
        .param("email", email)
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }

  public long count(UUID tenantId, String searchPattern, String email) {
    return jdbc.sql("select count(*) from contact " + LIST_FILTER)
        .param("tenantId", tenantId)
        .param("search", searchPattern)
        .param("email", email)
        .query(Long.class)
        .single();
  }
}
