package com.crmflow.api.opportunity;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.recordfield.SqlAssignments;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
public class OpportunityRepository {

  private static final String COLUMNS =
      """
      id, name, stage, value, probability, close_date, lead_source, description, next_step,
      contact_id, account_id, custom_fields, closed_at, lost_reason, created_at, updated_at
      """;

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<Opportunity> mapper;

  OpportunityRepository(JdbcClient jdbc, JsonColumns json) {
    this.jdbc = jdbc;
    this.json = json;
    this.mapper =
        (rs, row) ->
            new Opportunity(
                rs.getObject("id", UUID.class),
                rs.getString("name"),
                rs.getString("stage"),
                rs.getObject("value", BigDecimal.class),
                rs.getObject("probability", BigDecimal.class),
                rs.getObject("close_date", LocalDate.class),
                rs.getString("lead_source"),
                rs.getString("description"),
                rs.getString("next_step"),
                rs.getObject("contact_id", UUID.class),
                rs.getObject("account_id", UUID.class),
                json.readMap(rs.getString("custom_fields")),
                rs.getObject("closed_at", OffsetDateTime.class),
                rs.getString("lost_reason"),
                rs.getObject("created_at", OffsetDateTime.class),
                rs.getObject("updated_at", OffsetDateTime.class));
  }

  public Opportunity insert(UUID tenantId, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(SqlAssignments.insertWithCustomFields("opportunity", fields.keySet(), COLUMNS))
        .params(fields)
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("customFields", json.write(custom))
        .query(mapper)
        .single();
  }

  public Optional<Opportunity> find(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from opportunity where tenant_id = :tenantId and id = :id"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  public Optional<Opportunity> lock(UUID tenantId, UUID id) {
    return jdbc.sql(
            "select %s from opportunity where tenant_id = :tenantId and id = :id for update"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("id", id)
        .query(mapper)
        .optional();
  }

  public Opportunity update(
      UUID tenantId, UUID id, Map<String, Object> fields, Map<String, Object> custom) {
    return jdbc.sql(SqlAssignments.updateWithCustomFields("opportunity", fields.keySet(), COLUMNS))
        .params(fields)
        .param("tenantId", tenantId)
        .param("id", id)
        .param("customFields", json.write(custom))
        .query(mapper)
        .single();
  }

  /** Newest first (ties broken by id), after a cursor or from an offset. */
  public List<Opportunity> list(UUID tenantId, Cursor after, int limit, int offset) {
    return jdbc.sql(
            LargeLists.pageQuery(
                COLUMNS,
                "opportunity",
                "tenant_id = :tenantId"
                    + (after == null ? "" : " and (created_at, id) < (:afterAt, :afterId)"),
                "created_at desc, id desc",
                offset))
        .param("tenantId", tenantId)
        .param("afterAt", after == null ? null : after.at())
        .param("afterId", after == null ? null : after.id())
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }
}
