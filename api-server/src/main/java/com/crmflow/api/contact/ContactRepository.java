package com.crmflow.api.contact;

import com.crmflow.api.json.JsonColumns;
import com.crmflow.api.recordfield.LikePattern;
import com.crmflow.api.recordfield.SqlAssignments;
import com.crmflow.api.web.Cursor;
import com.crmflow.api.web.LargeLists;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.postgresql.PGStatement;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.RowMapperResultSetExtractor;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
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

  private final JdbcClient jdbc;
  private final JsonColumns json;
  private final RowMapper<Contact> mapper;
  private final SearchTrigrams searchTrigrams;

  private final NamedParameterJdbcTemplate statements;

  ContactRepository(
      JdbcClient jdbc,
      JsonColumns json,
      SearchTrigrams searchTrigrams,
      NamedParameterJdbcTemplate statements) {
    this.jdbc = jdbc;
    this.json = json;
    this.searchTrigrams = searchTrigrams;
    this.statements = statements;
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

  /**
   * A page of the tenant's contacts, newest first (ties broken by id, so pages never overlap),
   * optionally only the one with this email (and matching a search pattern), after a cursor or from
   * an offset.
   */
  public List<Contact> list(
      UUID tenantId, String email, String containsPattern, Cursor after, int limit, int offset) {
    return jdbc.sql(
            LargeLists.pageQuery(
                COLUMNS,
                "contact",
                "tenant_id = :tenantId"
                    + (email == null ? "" : " and email = :email")
                    + (containsPattern == null ? "" : " and search_text like :search escape '\\'")
                    + (after == null ? "" : " and (created_at, id) < (:afterAt, :afterId)"),
                "created_at desc, id desc",
                offset))
        .param("tenantId", tenantId)
        .param("email", email)
        .param("search", containsPattern)
        .param("afterAt", after == null ? null : after.at())
        .param("afterId", after == null ? null : after.id())
        .param("limit", limit)
        .param("offset", offset)
        .query(mapper)
        .list();
  }

  /** A ranked page of a search, and how many contacts match (counted up to the cap + 1). */
  public record SearchPage(List<Contact> contacts, long counted) {}

  /** A match of a search: what ranks it. */
  private record Match(
      UUID id, OffsetDateTime createdAt, boolean exactEmail, boolean prefix, String sortText) {}

  private static final Comparator<Match> RANKED =
      Comparator.comparing((Match m) -> !m.exactEmail())
          .thenComparing(m -> !m.prefix())
          .thenComparing(
              (a, b) ->
                  a.prefix()
                      ? Arrays.compareUnsigned(
                          a.sortText().getBytes(StandardCharsets.UTF_8),
                          b.sortText().getBytes(StandardCharsets.UTF_8))
                      : b.createdAt().compareTo(a.createdAt()))
          .thenComparing(
              (a, b) -> a.prefix() ? uuidOrder(a.id(), b.id()) : uuidOrder(b.id(), a.id()));

  /** PostgreSQL's order of uuids (unsigned bytes), which UUID.compareTo does not follow. */
  private static int uuidOrder(UUID a, UUID b) {
    int high = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
    return high != 0
        ? high
        : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
  }

  /**
   * The contacts whose name, email or company holds the term, ranked: the contact with exactly this
   * email, then those whose search text starts with the term (first name first, in byte order),
   * then the other matches, newest first.
   *
   * <p>One scan finds the matches, up to {@code cap} + 1 of them: by the trigram index for a rare
   * term (asked only for the term's rare trigrams, see {@link SearchTrigrams}), by the table for a
   * broad one, whose first matches come at once. When that is all of them, they are ranked here and
   * only the page's rows are read. A broad term's page is ranked by one statement of ids in three
   * parts, each reading at most offset + limit of them: the exact email and the prefix matches by
   * their indexes (the prefixes from the index alone), and the newest other matches, by a walk of
   * the contacts newest first for a common term or sorted from all its matches for a rarer one.
   * Then the page's rows are read, so a term that matches a tenth of the tenant costs what a rare
   * one does.
   */
  public SearchPage search(UUID tenantId, String term, int limit, int offset, int cap) {
    String exact = term.trim().toLowerCase(Locale.ROOT);
    String prefix = LikePattern.startsWith(term);
    Map<String, Object> params = new HashMap<>();
    boolean common = searchTrigrams.isCommon(tenantId, term);
    String holds = holdsTerm(common, term, params);
    params.put("tenantId", tenantId);
    params.put("exact", exact);
    params.put("prefix", prefix);
    params.put("cap", cap + 1);
    List<Match> matches =
        plannedForItsPatterns(
            """
            select id, created_at, email = :exact as exact_email,
                   (search_text collate "C") like :prefix escape '\\' as prefix,
                   search_text as sort_text
            from contact
            where tenant_id = :tenantId and %s
            limit :cap
            """
                .formatted(holds),
            params,
            MATCH);
    int wanted = offset + limit;
    if (matches.size() <= cap) {
      List<UUID> ids =
          matches.stream().sorted(RANKED).skip(offset).limit(limit).map(Match::id).toList();
      return new SearchPage(byIds(tenantId, ids), matches.size());
    }
    // ids only: the prefix matches come from the index alone, and only the page's rows are read
    params.put("wanted", wanted);
    String others =
        """
        select id, created_at from contact
        where tenant_id = :tenantId and %s
          and not ((search_text collate "C") like :prefix escape '\\')
          and email <> :exact
        """
            .formatted(holds);
    // a common term's newest matches come first in a walk of the contacts newest first; a rarer
    // term's might be none (its matches all prefixes): the walk would read the whole tenant, so its
    // matches (fewer than 1 in 200 of a large tenant's contacts) are found first and then sorted.
    // The newest are read only when the exact email and the prefixes leave room on the page (a
    // one-time filter)
    RankedIds ids =
        plannedForItsPatterns(
                """
                with exact as (
                  select id from contact where tenant_id = :tenantId and email = :exact),
                prefixed as (
                  select id, (search_text collate "C") as sort_text from contact
                  where tenant_id = :tenantId
                    and (search_text collate "C") like :prefix escape '\\'
                  order by (search_text collate "C"), id
                  limit :wanted + 1),
                others as %s (%s),
                newest as (
                  select id, created_at from others
                  where (select count(*) from exact)
                        + (select count(*) from prefixed where id not in (select id from exact))
                        < :wanted
                  order by created_at desc, id desc
                  limit :wanted)
                select (select array_agg(id) from exact) as exact,
                       (select array_agg(id order by sort_text, id) from prefixed) as prefixed,
                       (select array_agg(id order by created_at desc, id desc) from newest) as newest
                """
                    .formatted(common ? "not materialized" : "materialized", others),
                params,
                RANKED_IDS)
            .get(0);
    List<UUID> ranked = new ArrayList<>(ids.exact());
    ids.prefixed().stream()
        .filter(id -> !ids.exact().contains(id))
        .limit(wanted - ranked.size())
        .forEach(ranked::add);
    ids.newest().stream().limit(Math.max(0, wanted - ranked.size())).forEach(ranked::add);
    return new SearchPage(
        byIds(
            tenantId,
            ranked.subList(Math.min(offset, ranked.size()), Math.min(wanted, ranked.size()))),
        matches.size());
  }

  /**
   * By column position: Spring's DataClassRowMapper looks a column up by its parameter's plain name
   * first ({@code createdat}), and pgjdbc answers a name it does not have with an exception: three
   * of them per row.
   */
  private static final RowMapper<Match> MATCH =
      (rs, row) ->
          new Match(
              rs.getObject(1, UUID.class),
              rs.getObject(2, OffsetDateTime.class),
              rs.getBoolean(3),
              rs.getBoolean(4),
              rs.getString(5));

  /** A broad search's ranked ids: the exact email's, the prefix matches', the newest others'. */
  private record RankedIds(List<UUID> exact, List<UUID> prefixed, List<UUID> newest) {}

  private static final RowMapper<RankedIds> RANKED_IDS =
      (rs, row) -> new RankedIds(uuids(rs, 1), uuids(rs, 2), uuids(rs, 3));

  /** A uuid[] column, empty when null (array_agg over no rows). */
  private static List<UUID> uuids(ResultSet rs, int column) throws SQLException {
    Array array = rs.getArray(column);
    return array == null ? List.of() : List.of((UUID[]) array.getArray());
  }

  /**
   * Runs a query as an unnamed statement, which PostgreSQL plans for these parameters on every
   * call. A prepared statement would reach a generic plan after a few calls, and a generic plan
   * cannot tell a rare pattern from a broad one: a seq scan for a rare term reads the whole table.
   * (A scan for a broad term also starts at the table's head: the pool's connections turn
   * synchronised scans off, see application.properties.)
   */
  private <T> List<T> plannedForItsPatterns(
      String sql, Map<String, Object> params, RowMapper<T> mapper) {
    return statements.execute(
        sql,
        params,
        statement -> {
          statement.unwrap(PGStatement.class).setPrepareThreshold(0);
          try (var rows = statement.executeQuery()) {
            return new RowMapperResultSetExtractor<>(mapper).extractData(rows);
          }
        });
  }

  /**
   * The condition that the search text holds the term, its parameters put into {@code params}. A
   * common term is checked by {@code strpos} alone, which the trigram index does not take: its
   * matches are found by the table (see {@link SearchTrigrams}). With rare trigrams, the index is
   * asked for them and the term is checked by {@code strpos}, so that the planner cannot add the
   * common trigrams back.
   */
  private String holdsTerm(boolean common, String term, Map<String, Object> params) {
    params.put("needle", term.trim().toLowerCase(Locale.ROOT));
    if (common) {
      return "strpos(search_text, :needle) > 0";
    }
    List<String> rare = searchTrigrams.rareTrigrams(term);
    if (rare.isEmpty()) {
      params.put("contains", LikePattern.contains(term));
      return "search_text like :contains escape '\\'";
    }
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < rare.size(); i++) {
      params.put("trigram" + i, "%" + rare.get(i) + "%");
      sql.append("search_text like :trigram").append(i).append(" and ");
    }
    return sql.append("strpos(search_text, :needle) > 0").toString();
  }

  /** These contacts, in this order. */
  private List<Contact> byIds(UUID tenantId, List<UUID> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    Map<UUID, Contact> found = new HashMap<>();
    jdbc.sql(
            "select %s from contact where tenant_id = :tenantId and id = any(:ids)"
                .formatted(COLUMNS))
        .param("tenantId", tenantId)
        .param("ids", ids.toArray(UUID[]::new))
        .query(mapper)
        .list()
        .forEach(c -> found.put(c.id(), c));
    return ids.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  /** How many contacts match, counted up to {@code cap} (a bounded cost whatever the tenant). */
  public long countUpTo(UUID tenantId, String containsPattern, String email, int cap) {
    return jdbc.sql(
            """
            select count(*) from (
              select 1 from contact where tenant_id = :tenantId %s %s limit :cap) counted
            """
                .formatted(
                    containsPattern == null ? "" : "and search_text like :search escape '\\'",
                    email == null ? "" : "and email = :email"))
        .param("tenantId", tenantId)
        .param("search", containsPattern)
        .param("email", email)
        .param("cap", cap)
        .query(Long.class)
        .single();
  }
}
