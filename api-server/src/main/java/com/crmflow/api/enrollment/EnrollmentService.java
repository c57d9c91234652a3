package com.crmflow.api.enrollment;

import static com.crmflow.api.access.Scope.CONTACTS_READ;

import com.crmflow.api.access.Caller;
import com.crmflow.api.contact.Contact;
import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.event.EventOutbox;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.flow.FlowScopes;
import com.crmflow.api.flow.FlowSettings;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.reenroll.Reenrollment;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.run.RunCancels;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.tracing.LinkedTraces;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.enrollment.EnrollmentWorkflow;
import com.crmflow.workflow.event.EventNames;
import com.crmflow.workflow.rules.CanvasRules;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Enrolls contacts in sequences and takes them out again. Each enrollment runs as one
 * EnrollmentWorkflow on the sequence's canvas version of the moment it was enrolled.
 */
@Service
class EnrollmentService {

  private static final Set<String> FIELDS = Set.of("sequence_id", "contact_id", "contact_email");

  private final EnrollmentRepository enrollments;
  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final ContactRepository contacts;
  private final RunBeginnings beginnings;
  private final RunCancels cancels;
  private final LinkedTraces traces;
  private final EventOutbox events;
  private final WorkflowClient temporal;
  private final TransactionTemplate transaction;

  private final NodeTypes nodeTypes;
  private final Reenrollment reenrollment;

  EnrollmentService(
      EnrollmentRepository enrollments,
      SequenceRepository sequences,
      CanvasRepository canvases,
      ContactRepository contacts,
      RunBeginnings beginnings,
      RunCancels cancels,
      EventOutbox events,
      WorkflowClient temporal,
      TransactionTemplate transaction,
      LinkedTraces traces,
      NodeTypes nodeTypes,
      Reenrollment reenrollment) {
    this.reenrollment = reenrollment;
    this.nodeTypes = nodeTypes;
    this.traces = traces;
    this.enrollments = enrollments;
    this.sequences = sequences;
    this.canvases = canvases;
    this.contacts = contacts;
    this.beginnings = beginnings;
    this.cancels = cancels;
    this.events = events;
    this.temporal = temporal;
    this.transaction = transaction;
  }

  /** Which sequence and contact a request names, checked. */
  record Target(Sequence sequence, Contact contact) {}

  record Enrolled(Enrollment enrollment, String sequenceName) {}

  /**
   * Enrolls, or returns the existing active enrollment (updated_at touched, nothing started). An
   * ended enrollment (completed, failed, unenrolled) becomes active again with a new run. The
   * caller's key must hold the scopes the sequence's nodes act with, as activating it does: an
   * enrollment makes the sequence act on the contact it names.
   *
   * @throws ApiException 403 naming the scopes the key lacks (nothing stored, nothing started)
   */
  Enrolled enroll(Caller caller, JsonNode body) {
    UUID tenantId = caller.tenantId();
    Named named = named(caller, body);
    Sequence sequence = sequence(tenantId, named.sequenceId(), true);
    CanvasSnapshot version =
        canvases.version(tenantId, sequence.id(), sequence.currentVersion()).orElseThrow();
    Canvas canvas = version.toCanvas();
    // before the contact is looked up: an answer that differs by the contact must not reach a key
    // the sequence's scopes refuse
    FlowScopes.requireHeldBy(caller, canvas, "Enrolling a contact in this sequence", nodeTypes);
    Target target = new Target(sequence, contact(tenantId, named));
    Enrollment enrollment;
    try {
      enrollment =
          enroll(
              new SequenceToEnroll(
                  tenantId, sequence, canvas, version.settings(), firstStep(canvas)),
              target.contact().id());
    } catch (NotReenrolled refused) {
      throw ApiException.conflict(refused.getMessage() + " Nothing was enrolled.");
    }
    return new Enrolled(enrollment, sequence.name());
  }

  /**
   * A sequence as an enrollment starts it: its current canvas version and first step.
   *
   * @param sequence an active sequence (not an automation)
   */
  record SequenceToEnroll(
      UUID tenantId, Sequence sequence, Canvas canvas, FlowSettings settings, String firstStep) {}

  /** The sequence, if it is an active sequence (not an automation), as enrollments start it. */
  Optional<SequenceToEnroll> sequenceToEnroll(UUID tenantId, UUID sequenceId) {
    return sequences
        .find(tenantId, sequenceId)
        .filter(s -> !s.isAutomation() && Sequence.ACTIVE.equals(s.status()))
        .map(
            s -> {
              CanvasSnapshot version =
                  canvases.version(tenantId, s.id(), s.currentVersion()).orElseThrow();
              Canvas canvas = version.toCanvas();
              return new SequenceToEnroll(
                  tenantId, s, canvas, version.settings(), firstStep(canvas));
            });
  }

  /**
   * Enrolls one contact of the sequence's tenant, as {@link #enroll(Caller, JsonNode)} does once
   * the caller is checked; true when this started a new run (false: the enrollment was active).
   */
  boolean enrollOne(SequenceToEnroll sequence, UUID contactId) {
    UUID before = UUID.randomUUID();
    try {
      return enroll(sequence, contactId, before).runId().equals(before);
    } catch (NotReenrolled refused) {
      return false; // the flow's re-enrollment rule holds this contact: counted as not enrolled
    }
  }

  /** The flow's re-enrollment rule refuses the contact a new run (nothing is stored). */
  private static final class NotReenrolled extends RuntimeException {
    NotReenrolled(String message) {
      super(message, null, false, false);
    }
  }

  private Enrollment enroll(SequenceToEnroll toEnroll, UUID contactId) {
    return enroll(toEnroll, contactId, UUID.randomUUID());
  }

  /** Enrolls the contact with {@code newRunId} as its run, unless its enrollment is active. */
  private Enrollment enroll(SequenceToEnroll toEnroll, UUID contactId, UUID newRunId) {
    Sequence sequence = toEnroll.sequence();
    Canvas canvas = toEnroll.canvas();
    String firstStep = toEnroll.firstStep();
    UUID tenantId = toEnroll.tenantId();
    return transaction.execute(
        tx -> {
          Enrollment upserted = enrollments.upsert(tenantId, sequence.id(), contactId, newRunId);
          if (!upserted.runId().equals(newRunId)) {
            return upserted; // already active: same enrollment, nothing new starts
          }
          reenrollment
              .claim(
                  tenantId,
                  sequence.id(),
                  toEnroll.settings(),
                  EventNames.CONTACT + ":" + contactId,
                  newRunId)
              .ifPresent(
                  refusal -> {
                    throw new NotReenrolled(refusal.message());
                  });
          Map<String, Object> payload = new LinkedHashMap<>();
          payload.put("enrollment_id", upserted.id().toString());
          payload.put("sequence_id", sequence.id().toString());
          payload.put("contact_id", contactId.toString());
          payload.put("enrolled_at", upserted.enrolledAt().toString());
          // the enrollment's run traces on its own (its steps may come days later), linked
          // to this call; it starts once the enrollment is committed
          traces.inNewTraceFromHere(
              "enrollment",
              () ->
                  beginnings
                      .begin(
                          RunBeginnings.Beginning.of(
                                  new RunRepository.NewRun(
                                      newRunId,
                                      tenantId,
                                      sequence.id(),
                                      sequence.currentVersion(),
                                      firstStep,
                                      firstStep,
                                      payload,
                                      null,
                                      null,
                                      EnrollmentWorkflow.workflowId(
                                          tenantId.toString(),
                                          sequence.id().toString(),
                                          contactId.toString()),
                                      upserted.id(),
                                      null),
                                  RunBeginnings.Start.SOON)
                              .pinnedTo(canvas))
                      .orElseThrow());
          events.emit(tenantId, EventNames.SEQUENCE_ENROLLED, eventData(upserted, sequence.name()));
          return upserted;
        });
  }

  /**
   * Takes the contact out: the workflow is cancelled first (so no further step runs), then the
   * enrollment is marked unenrolled. When Temporal cannot be reached nothing changes (503).
   */
  Enrolled unenroll(Caller caller, JsonNode body) {
    UUID tenantId = caller.tenantId();
    Named named = named(caller, body);
    Target target =
        new Target(sequence(tenantId, named.sequenceId(), false), contact(tenantId, named));
    Sequence sequence = target.sequence();
    Enrollment enrollment =
        enrollments
            .find(tenantId, sequence.id(), target.contact().id())
            .orElseThrow(
                () ->
                    ApiException.notFound(
                        "Enrollment of contact " + target.contact().id() + " in sequence",
                        sequence.id()));
    if (!Enrollment.ACTIVE.equals(enrollment.status())) {
      throw ApiException.conflict(
          "The enrollment is " + enrollment.status() + "; only an active one can be unenrolled.");
    }
    String workflowId =
        EnrollmentWorkflow.workflowId(
            tenantId.toString(), sequence.id().toString(), target.contact().id().toString());
    try {
      temporal.newUntypedWorkflowStub(workflowId).cancel();
    } catch (WorkflowNotFoundException notStartedOrOver) {
      // over already, or not started yet: a start still on its way must not run it
      if (enrollment.runId() != null) {
        cancels.cancelledBeforeStart(enrollment.runId(), workflowId);
      }
    } catch (RuntimeException unreachable) {
      throw ApiException.workflowEngineUnreachable("enrollment");
    }
    Enrollment ended =
        transaction.execute(
            tx -> {
              Optional<Enrollment> now =
                  enrollments.end(tenantId, enrollment.id(), Enrollment.UNENROLLED);
              now.ifPresent(
                  e ->
                      events.emit(
                          tenantId, EventNames.SEQUENCE_UNENROLLED, eventData(e, sequence.name())));
              // empty: the cancelled run ended it first (as unenrolled), or it ended on its own
              return now.orElseGet(
                  () ->
                      enrollments
                          .find(tenantId, sequence.id(), target.contact().id())
                          .orElseThrow());
            });
    return new Enrolled(ended, sequence.name());
  }

  /**
   * The data of a sequence.* event: ids, the sequence's name and the enrollment's status. Nothing
   * of the contact beyond its id, so an automation on these events, which needs sequences:read,
   * reads the contact only through {@code {{contact}}} (which needs contacts:read).
   */
  static Map<String, Object> eventData(Enrollment e, String sequenceName) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("enrollment_id", e.id().toString());
    data.put("sequence_id", e.sequenceId().toString());
    data.put("sequence_name", sequenceName);
    data.put("contact_id", e.contactId().toString());
    data.put("status", e.status());
    return data;
  }

  /** A sequence starts at its trigger if it has one, else at its single first step. */
  private String firstStep(Canvas canvas) {
    return nodeTypes.triggers(canvas).stream()
        .map(CanvasNode::id)
        .findFirst()
        .orElseGet(() -> CanvasRules.roots(canvas).get(0));
  }

  /** The sequence and the contact a request names, as given. */
  private record Named(UUID sequenceId, UUID contactId, String email) {}

  /**
   * The request's fields, checked (400). Naming a contact by email needs contacts:read (403): the
   * answer tells whether the tenant has a contact with that address, which a key that cannot read
   * contacts must not learn; such a key names the contact by its id.
   */
  private static Named named(Caller caller, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    body.propertyNames()
        .forEach(
            name -> {
              if (!FIELDS.contains(name)) {
                problems.add(new FieldProblem(name, "is not a field of an enrollment request"));
              }
            });
    UUID sequenceId = uuid(body, "sequence_id", problems, true);
    UUID contactId = uuid(body, "contact_id", problems, false);
    JsonNode emailNode = body.get("contact_email");
    String email = null;
    if (emailNode != null && !emailNode.isNull()) {
      if (!emailNode.isString() || emailNode.asString().isBlank()) {
        problems.add(new FieldProblem("contact_email", "must be an email address"));
      } else {
        email = emailNode.asString().trim().toLowerCase(Locale.ROOT);
      }
    }
    if (contactId == null && email == null && problems.isEmpty()) {
      problems.add(
          new FieldProblem("contact_id", "one of contact_id or contact_email is required"));
    }
    if (contactId != null && email != null) {
      problems.add(new FieldProblem("contact_email", "give contact_id or contact_email, not both"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    if (email != null && !caller.has(CONTACTS_READ)) {
      throw ApiException.forbidden(
          "Naming a contact by contact_email needs contacts:read, as the answer tells whether a"
              + " contact has that address; this API key lacks it. Name the contact by contact_id.");
    }
    return new Named(sequenceId, contactId, email);
  }

  private Sequence sequence(UUID tenantId, UUID sequenceId, boolean mustBeActive) {
    Sequence sequence =
        sequences
            .find(tenantId, sequenceId)
            .orElseThrow(
                () ->
                    ApiException.unprocessable(
                        "sequence_id refers to no sequence of this tenant.",
                        List.of(
                            new FieldProblem("sequence_id", "no sequence with id " + sequenceId))));
    if (mustBeActive) {
      requireEnrollable(sequence);
    }
    return sequence;
  }

  private Contact contact(UUID tenantId, Named named) {
    UUID contactId = named.contactId();
    Contact contact;
    if (contactId != null) {
      contact =
          contacts
              .find(tenantId, contactId)
              .orElseThrow(
                  () ->
                      ApiException.unprocessable(
                          "contact_id refers to no contact of this tenant; create the contact"
                              + " first (POST /api/v1/contacts).",
                          List.of(
                              new FieldProblem("contact_id", "no contact with id " + contactId))));
    } else {
      String wanted = named.email();
      contact =
          enrollments
              .contactIdByEmail(tenantId, wanted)
              .flatMap(id -> contacts.find(tenantId, id))
              .orElseThrow(
                  () ->
                      ApiException.unprocessable(
                          "contact_email refers to no contact of this tenant; create the contact"
                              + " first (POST /api/v1/contacts).",
                          List.of(
                              new FieldProblem(
                                  "contact_email", "no contact with email " + wanted))));
    }
    return contact;
  }

  /**
   * @throws ApiException 422 when the sequence is an automation, or not active: contacts enroll in
   *     active sequences only
   */
  static void requireEnrollable(Sequence sequence) {
    if (sequence.isAutomation()) {
      throw ApiException.unprocessable(
          "Sequence " + sequence.id() + " is an automation; contacts enroll in sequences only.",
          List.of(new FieldProblem("sequence_id", "flow_type is automation, not sequence")));
    }
    if (!Sequence.ACTIVE.equals(sequence.status())) {
      throw ApiException.unprocessable(
          "Sequence " + sequence.id() + " is " + sequence.status() + "; enroll in an active one.",
          List.of(new FieldProblem("sequence_id", "status is " + sequence.status())));
    }
  }

  private static UUID uuid(
      JsonNode body, String field, List<FieldProblem> problems, boolean required) {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        problems.add(new FieldProblem(field, "is required"));
      }
      return null;
    }
    if (!value.isString()) {
      problems.add(new FieldProblem(field, "must be a UUID"));
      return null;
    }
    try {
      return UUID.fromString(value.asString());
    } catch (IllegalArgumentException e) {
      problems.add(new FieldProblem(field, "must be a UUID"));
      return null;
    }
  }
}
