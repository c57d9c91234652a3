package com.crmflow.api.enrollment;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.joblease.JobPolling;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Service;
import tools.jackson.databind.JsonNode;

/**
 * Bulk enrollments: every contact a filter matches, enrolled in a sequence by a durable job, never
 * in the request's thread. The request checks the filter and the caller's scopes (those of one
 * enrollment, and contacts:read for the filter), stores the job and answers; then, every {@code
 * crm.enrollments.bulk.pause}, an api-server that holds the job's lease enrolls its next page of
 * {@code crm.enrollments.bulk.page-size} contacts (in id order) and records the page with the job:
 * a paced job, whose progress the API shows. A job whose api-server died is taken on by any
 * api-server once its lease (a minute) runs out, from its last page; a page done again enrolls
 * nobody twice (a contact this job enrolled, or whose enrollment is active, is passed over), and
 * each enrollment is the one-contact enrollment's, with its run and its sequence.enrolled event.
 */
@Service
class BulkEnrollments implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(BulkEnrollments.class);
  private static final Duration LEASE = Duration.ofMinutes(1);

  private final BulkEnrollmentRepository jobs;
  private final EnrollmentService enrollments;
  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final NodeTypes nodeTypes;
  private final CrmProperties.Enrollments.Bulk settings;

  /** This process, as the holder of the jobs it leases. */
  private final String holder = "api-" + UUID.randomUUID();

  private final JobPolling polling = new JobPolling();

  BulkEnrollments(
      BulkEnrollmentRepository jobs,
      EnrollmentService enrollments,
      SequenceRepository sequences,
      CanvasRepository canvases,
      NodeTypes nodeTypes,
      CrmProperties properties) {
    this.jobs = jobs;
    this.enrollments = enrollments;
    this.sequences = sequences;
    this.canvases = canvases;
    this.nodeTypes = nodeTypes;
    this.settings = properties.enrollments().bulk();
  }

  /**
   * Stores a job for the contacts the body's filter matches.
   *
   * @throws ApiException 400 for a filter it cannot read, 404 for no such sequence, 422 for an
   *     automation or a sequence not active, 403 for a key without contacts:read or the scopes the
   *     sequence's nodes act with (nothing stored)
   */
  BulkEnrollmentJob start(Caller caller, UUID sequenceId, JsonNode body) {
    Map<String, String> filter = filter(body);
    Sequence sequence =
        sequences
            .find(caller.tenantId(), sequenceId)
            .orElseThrow(() -> ApiException.notFound("Sequence", sequenceId));
    EnrollmentService.requireEnrollable(sequence);
    if (!caller.has(Scope.CONTACTS_READ)) {
      throw ApiException.forbidden(
          "A bulk enrollment reads the contacts its filter matches: the key needs scope "
              + Scope.CONTACTS_READ.value()
              + ".");
    }
    Canvas canvas =
        canvases
            .version(caller.tenantId(), sequence.id(), sequence.currentVersion())
            .orElseThrow()
            .toCanvas();
    FlowScopes.requireHeldBy(caller, canvas, "Enrolling contacts in this sequence", nodeTypes);
    BulkEnrollmentJob job = jobs.insert(caller.tenantId(), sequence.id(), filter);
    polling.wake();
    return job;
  }

  Optional<BulkEnrollmentJob> find(UUID tenantId, UUID sequenceId, UUID jobId) {
    return jobs.find(tenantId, sequenceId, jobId);
  }

  /**
   * {@code {"filter": {...}}}: each key a contact field the filter may name, each value a string.
   */
  private static Map<String, String> filter(JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("filter", "the body is {\"filter\": {...}}");
    }
    body.propertyNames()
        .forEach(
            name -> {
              if (!name.equals("filter")) {
                problems.add(new FieldProblem(name, "is not a field of a bulk enrollment"));
              }
            });
    JsonNode filter = body.get("filter");
    Map<String, String> read = new LinkedHashMap<>();
    if (filter == null || !filter.isObject()) {
      problems.add(
          new FieldProblem(
              "filter",
              "is required: an object of contact fields to match, e.g. {\"lifecycle_stage\":"
                  + " \"lead\"} ({} for every contact)"));
    } else {
      filter
          .properties()
          .forEach(
              field -> {
                String name = field.getKey();
                JsonNode value = field.getValue();
                if (!BulkEnrollmentRepository.EQUAL_COLUMNS.contains(name)
                    && !name.equals("email")
                    && !name.equals("search")) {
                  problems.add(
                      new FieldProblem(
                          "filter." + name,
                          "is not a field a filter may name: "
                              + BulkEnrollmentRepository.EQUAL_COLUMNS
                              + ", email or search"));
                } else if (!value.isString() || value.asString().isBlank()) {
                  problems.add(new FieldProblem("filter." + name, "must be a non-empty string"));
                } else if (value.asString().length() > 500) {
                  problems.add(
                      new FieldProblem("filter." + name, "must be at most 500 characters"));
                } else {
                  String text = value.asString().trim();
                  read.put(name, name.equals("email") ? text.toLowerCase(Locale.ROOT) : text);
                }
              });
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    return read;
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar tasks) {
    tasks.addFixedDelayTask(
        new FixedDelayTask(this::nextPage, settings.pause(), Duration.ofSeconds(1)));
  }

  /** Enrolls the next page of the oldest job this process may take; whether there was one. */
  boolean nextPage() {
    Optional<BulkEnrollmentJob> leased =
        polling.lookFor("bulk enrollments", () -> jobs.lease(holder, LEASE));
    if (leased.isEmpty()) {
      return false;
    }
    BulkEnrollmentJob job = leased.get();
    try {
      List<BulkEnrollmentRepository.PageContact> page = jobs.page(job, settings.pageSize());
      if (page.isEmpty()) {
        jobs.finish(job.id(), BulkEnrollmentJob.COMPLETED, null);
        return true;
      }
      Optional<EnrollmentService.SequenceToEnroll> sequence =
          enrollments.sequenceToEnroll(job.tenantId(), job.sequenceId());
      if (sequence.isEmpty()) {
        jobs.finish(
            job.id(),
            BulkEnrollmentJob.FAILED,
            "The sequence was paused, archived or removed; the contacts after "
                + job.afterContact()
                + " were not enrolled.");
        return true;
      }
      long enrolled = 0;
      long already = 0;
      for (BulkEnrollmentRepository.PageContact contact : page) {
        if (contact.toEnroll() && enrollments.enrollOne(sequence.get(), contact.id())) {
          enrolled++;
        } else {
          already++;
        }
      }
      jobs.pageDone(
          job.id(), holder, page.get(page.size() - 1).id(), page.size(), enrolled, already);
      return true;
    } catch (RuntimeException failed) {
      // the lease runs out and the page is done again, by this process or another
      log.warn("A page of bulk enrollment {} failed: {}", job.id(), failed.toString());
      return false;
    }
  }
}
