package com.crmflow.api.enrollment;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * POST /sequences/{id}/enrollments/bulk: a durable job that enrolls every contact a filter matches,
 * a page at a time, once each; GET .../bulk/{jobId} shows how far it is.
 */
class BulkEnrollmentApiTest extends ApiTest {

  @Autowired private BulkEnrollments bulk;

  private TenantClient tenant;
  private List<String> leads;
  private List<String> customers;

  @BeforeEach
  void setUp() {
    tenant = newTenant();
    leads = new ArrayList<>();
    customers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      leads.add(contact("lead-" + i, "lead"));
    }
    for (int i = 0; i < 3; i++) {
      customers.add(contact("customer-" + i, "customer"));
    }
  }

  private String contact(String name, String stage) {
    ApiResponse created =
        tenant
            .api()
            .post(
                "/api/v1/contacts",
                Map.of(
                    "email", name + "-" + UUID.randomUUID() + "@example.com",
                    "first_name", name,
                    "lifecycle_stage", stage));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/contact/id");
  }

  /** welcome email → 1-day delay → follow-up email, active. */
  private String waitingSequence() {
    String id = sequence(tenant.api(), "Leads " + UUID.randomUUID());
    ApiResponse saved =
        tenant
            .api()
            .put(
                "/api/sequences/" + id + "/canvas",
                canvas(
                    List.of(
                        node("welcome", "email", Map.of("subject", "Hi {{contact.first_name}}")),
                        node("wait", "delay", Map.of("delayDays", 1)),
                        node("follow", "email", Map.of("subject", "Following up"))),
                    List.of(edge("e1", "welcome", "wait"), edge("e2", "wait", "follow"))));
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
    assertThat(tenant.api().patch("/api/v1/sequences/" + id, Map.of("status", "active")).status())
        .isEqualTo(200);
    return id;
  }

  /** Starts a bulk enrollment of every lead in the sequence. */
  private ApiResponse bulkOfLeads(String sequenceId) {
    return tenant
        .api()
        .post(
            "/api/v1/sequences/" + sequenceId + "/enrollments/bulk",
            Map.of("filter", Map.of("lifecycle_stage", "lead")));
  }

  private JsonNode awaitJob(String sequenceId, String jobId) {
    JsonNode[] job = new JsonNode[1];
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              job[0] =
                  tenant
                      .api()
                      .get("/api/v1/sequences/" + sequenceId + "/enrollments/bulk/" + jobId)
                      .at("/job");
              return !job[0].get("status").asString().equals("running");
            });
    return job[0];
  }

  private Set<String> enrolledContacts(String sequenceId) {
    return jdbc
        .sql("select contact_id::text from enrollment where sequence_id = :s and status = 'active'")
        .param("s", UUID.fromString(sequenceId))
        .query(String.class)
        .list()
        .stream()
        .collect(Collectors.toSet());
  }

  private long runsOf(String sequenceId) {
    return jdbc.sql("select count(*) from automation_run where sequence_id = :s")
        .param("s", UUID.fromString(sequenceId))
        .query(Long.class)
        .single();
  }

  @Test
  void everyLeadIsEnrolledOnceByAJobWhoseProgressTheApiShows() {
    String sequenceId = waitingSequence();
    // one lead enrolled already: the job leaves its enrollment as it is
    ApiResponse one =
        tenant
            .api()
            .post(
                "/api/v1/sequences/enroll",
                Map.of("sequence_id", sequenceId, "contact_id", leads.get(0)));
    assertThat(one.status()).isEqualTo(201);

    ApiResponse started = bulkOfLeads(sequenceId);

    assertThat(started.status()).as(started.toString()).isEqualTo(202);
    assertThat(started.text("/job/status")).isEqualTo("running");
    assertThat(started.text("/job/sequence_id")).isEqualTo(sequenceId);
    assertThat(started.text("/job/filter/lifecycle_stage")).isEqualTo("lead");
    JsonNode job = awaitJob(sequenceId, started.text("/job/id"));
    assertThat(job.get("status").asString()).isEqualTo("completed");
    assertThat(job.get("contacts_seen").asLong()).isEqualTo(7);
    assertThat(job.get("enrolled").asLong()).isEqualTo(6);
    assertThat(job.get("already_active").asLong()).isEqualTo(1);
    assertThat(job.get("finished_at").isNull()).isFalse();
    assertThat(enrolledContacts(sequenceId)).containsExactlyInAnyOrderElementsOf(leads);
    assertThat(runsOf(sequenceId)).as("one run per lead").isEqualTo(7);

    // the same job again: every lead is enrolled already, nothing new starts
    ApiResponse again = bulkOfLeads(sequenceId);
    JsonNode second = awaitJob(sequenceId, again.text("/job/id"));
    assertThat(second.get("enrolled").asLong()).isZero();
    assertThat(second.get("already_active").asLong()).isEqualTo(7);
    assertThat(runsOf(sequenceId)).isEqualTo(7);
  }

  @Test
  void aJobWhoseApiServerDiedGoesOnFromItsLastPageAndEnrollsNobodyTwice() {
    String sequenceId = waitingSequence();
    ApiResponse started = bulkOfLeads(sequenceId);
    String jobId = started.text("/job/id");
    JsonNode done = awaitJob(sequenceId, jobId);
    assertThat(done.get("enrolled").asLong()).isEqualTo(7);

    // as if the api-server holding it had been killed half-way: running, its lease run out, its
    // cursor at the fourth lead, the leads after it not counted yet
    List<String> byId = leads.stream().sorted(BulkEnrollmentApiTest::uuidOrder).toList();
    jdbc.sql(
            """
            update bulk_enrollment_job set status = 'running', finished_at = null,
                leased_by = 'killed', lease_until = now() - interval '1 second',
                after_contact = :after, contacts_seen = 4, enrolled = 4, already_active = 0
            where id = :id
            """)
        .param("after", UUID.fromString(byId.get(3)))
        .param("id", UUID.fromString(jobId))
        .update();

    JsonNode resumed = awaitJob(sequenceId, jobId);
    assertThat(resumed.get("status").asString()).isEqualTo("completed");
    assertThat(resumed.get("contacts_seen").asLong()).isEqualTo(7);
    // the three after the cursor were this job's already: none enrolled a second time
    assertThat(resumed.get("enrolled").asLong()).isEqualTo(4);
    assertThat(resumed.get("already_active").asLong()).isEqualTo(3);
    assertThat(runsOf(sequenceId)).isEqualTo(7);
  }

  /** PostgreSQL's order of uuids (unsigned bytes), the order a job pages in. */
  private static int uuidOrder(String a, String b) {
    UUID x = UUID.fromString(a);
    UUID y = UUID.fromString(b);
    int high = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
    return high != 0
        ? high
        : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
  }

  @Test
  void aBadFilterOrAKeyWithoutTheScopesChangesNothing() {
    String sequenceId = waitingSequence();
    String path = "/api/v1/sequences/" + sequenceId + "/enrollments/bulk";

    ApiResponse unknownField = tenant.api().post(path, Map.of("filter", Map.of("shoe_size", "9")));
    assertThat(unknownField.status()).as(unknownField.toString()).isEqualTo(400);
    assertThat(unknownField.contentType()).startsWith("application/problem+json");
    assertThat(unknownField.toString()).contains("filter.shoe_size");
    ApiResponse noFilter = tenant.api().post(path, Map.of("lifecycle_stage", "lead"));
    assertThat(noFilter.status()).isEqualTo(400);
    ApiResponse notText = tenant.api().post(path, Map.of("filter", Map.of("lifecycle_stage", 3)));
    assertThat(notText.status()).isEqualTo(400);
    ApiResponse noSuchSequence =
        tenant
            .api()
            .post(
                "/api/v1/sequences/" + UUID.randomUUID() + "/enrollments/bulk",
                Map.of("filter", Map.of()));
    assertThat(noSuchSequence.status()).isEqualTo(404);

    ApiClient withoutContacts =
        keyFor(tenant.id(), List.of("sequences:write", "sequences:read"), null);
    ApiResponse refused = withoutContacts.post(path, Map.of("filter", Map.of()));
    assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
    assertThat(refused.text("/detail")).contains("contacts:read");
    ApiClient readerOnly = keyFor(tenant.id(), List.of("sequences:read", "contacts:read"), null);
    assertThat(readerOnly.post(path, Map.of("filter", Map.of())).status()).isEqualTo(403);

    assertThat(
            jdbc.sql("select count(*) from bulk_enrollment_job where tenant_id = :t")
                .param("t", tenant.id())
                .query(Long.class)
                .single())
        .isZero();
    assertThat(enrolledContacts(sequenceId)).isEmpty();
    // another tenant's job is not found
    assertThat(newTenant().api().get(path + "/" + UUID.randomUUID()).status()).isEqualTo(404);
  }
}
