package com.crmflow.api.enrollment;

import com.crmflow.api.joblease.JobLeases;
import com.crmflow.api.recordfield.LikePattern;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The bulk enrollment jobs, and the pages of contacts they go through. */
@Repository
class BulkEnrollmentRepository {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final TypeReference<Map<String, String>> FILTER = new TypeReference<>() {};

  private static final String COLUMNS =
      """
      id, tenant_id, sequence_id, filter::text as filter, status, contacts_seen, enrolled,
      already_active, after_contact, error, created_at, updated_at, finished_at\
      """;

  /**
   * The contact columns a filter may name, each matched for equality; {@code email} matches the
   * address exactly (case aside) and {@code search} as the contact list's search does (a part of
   * the name, email or company), as {@code GET /api/v1/contacts?email=&search=}.
   */
  static final List<String> EQUAL_COLUMNS =
      List.of("lifecycle_stage", "lead_status", "lead_source", "company", "job_title");

  private final JdbcClient jdbc;

  BulkEnrollmentRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  private static BulkEnrollmentJob job(ResultSet rs, int row) throws SQLException {
    return new BulkEnrollmentJob(
        rs.getObject("id", UUID.class),
        rs.getObject("tenant_id", UUID.class),
        rs.getObject("sequence_id", UUID.class),
        JSON.readValue(rs.getString("filter"), FILTER),
        rs.getString("status"),
        rs.getLong("contacts_seen"),
        rs.getLong("enrolled"),
        rs.getLong("already_active"),
        rs.getObject("after_contact", UUID.class),
        rs.getString("error"),
        rs.getObject("created_at", OffsetDateTime.class),
        rs.getObject("updated_at", OffsetDateTime.class),
        rs.getObject("finished_at", OffsetDateTime.class));
  }

  BulkEnrollmentJob insert(UUID tenantId, UUID sequenceId, Map<String, String> filter) {
    return jdbc.sql(
            """
            insert into bulk_enrollment_job (id, tenant_id, sequence_id, filter)
            values (:id, :tenantId, :sequenceId, cast(:filter as jsonb))
            returning %s
            """
                .formatted(COLUMNS))
        .param("id", UUID.randomUUID())
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .param("filter", JSON.writeValueAsString(filter))
        .query(BulkEnrollmentRepository::job)
        .single();
  }

  Optional<BulkEnrollmentJob> find(UUID tenantId, UUID sequenceId, UUID id) {
    return jdbc.sql(
            "select %s from bulk_enrollment_job where id = :id and tenant_id = :tenantId and sequence_id = :sequenceId"
                .formatted(COLUMNS))
        .param("id", id)
        .param("tenantId", tenantId)
        .param("sequenceId", sequenceId)
        .query(BulkEnrollmentRepository::job)
        .optional();
  }

  /**
   * Takes the oldest running job that no live api-server holds (its lease ran out, or it is this
   * one's), and holds it until {@code lease} from now.
   */
  Optional<BulkEnrollmentJob> lease(String holder, Duration lease) {
    return JobLeases.leaseOldest(
        jdbc, "bulk_enrollment_job", COLUMNS, holder, lease, BulkEnrollmentRepository::job);
  }

  /**
   * The next page of the job's contacts, in id order after its cursor: those the filter matches,
   * less those this job enrolled already (an enrollment in the sequence made since the job began,
   * or active), so a page done again after a crash enrolls nobody twice. The ids of the page's
   * contacts, each with whether it is to be enrolled.
   */
  List<PageContact> page(BulkEnrollmentJob job, int limit) {
    StringBuilder where = new StringBuilder("c.tenant_id = :tenantId and c.id > :after");
    Map<String, String> filter = job.filter();
    for (String column : EQUAL_COLUMNS) {
      if (filter.containsKey(column)) {
        where.append(" and c.").append(column).append(" = :").append(column);
      }
    }
    if (filter.containsKey("email")) {
      where.append(" and c.email = :email");
    }
    if (filter.containsKey("search")) {
      where.append(" and c.search_text like :search escape '\\\\'");
    }
    var statement =
        jdbc.sql(
                """
                select c.id,
                       not exists (
                         select 1 from enrollment e
                         where e.tenant_id = c.tenant_id and e.sequence_id = :sequenceId
                           and e.contact_id = c.id
                           and (e.status = 'active' or e.enrolled_at >= :since)) as to_enroll
                from contact c
                where %s
                order by c.id limit :limit
                """
                    .formatted(where))
            .param("tenantId", job.tenantId())
            .param("sequenceId", job.sequenceId())
            .param("since", job.createdAt())
            .param("after", job.afterContact() == null ? new UUID(0, 0) : job.afterContact())
            .param("limit", limit);
    for (String column : EQUAL_COLUMNS) {
      if (filter.containsKey(column)) {
        statement = statement.param(column, filter.get(column));
      }
    }
    if (filter.containsKey("email")) {
      statement = statement.param("email", filter.get("email"));
    }
    if (filter.containsKey("search")) {
      statement = statement.param("search", LikePattern.contains(filter.get("search")));
    }
    return statement
        .query(
            (rs, row) ->
                new PageContact(rs.getObject("id", UUID.class), rs.getBoolean("to_enroll")))
        .list();
  }

  /** A contact of a page, and whether the job is to enroll it (no enrollment of this job yet). */
  record PageContact(UUID id, boolean toEnroll) {}

  /** Records a page done: its last contact, what it enrolled; true while the holder holds it. */
  boolean pageDone(
      UUID jobId, String holder, UUID lastContact, long seen, long enrolled, long alreadyActive) {
    return jdbc.sql(
                """
            update bulk_enrollment_job set after_contact = :last,
                contacts_seen = contacts_seen + :seen, enrolled = enrolled + :enrolled,
                already_active = already_active + :already, updated_at = now()
            where id = :id and leased_by = :holder and status = 'running'
            """)
            .param("id", jobId)
            .param("holder", holder)
            .param("last", lastContact)
            .param("seen", seen)
            .param("enrolled", enrolled)
            .param("already", alreadyActive)
            .update()
        == 1;
  }

  /** Ends the job (completed, or failed with why). */
  void finish(UUID jobId, String status, String error) {
    jdbc.sql(
            """
            update bulk_enrollment_job set status = :status, error = :error, leased_by = null,
                lease_until = null, updated_at = now(), finished_at = now()
            where id = :id and status = 'running'
            """)
        .param("id", jobId)
        .param("status", status)
        .param("error", error)
        .update();
  }
}
