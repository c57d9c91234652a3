package com.crmflow.api.trigger;

import com.crmflow.api.event.EventCause;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasRepository.TriggerTarget;
import com.crmflow.api.flow.CanvasSecrets;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.reenroll.Reenrollment;
import com.crmflow.api.reenroll.RunRecords;
import com.crmflow.api.run.AutomationRun;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.web.ApiException;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The rules of the public automation trigger: no API key, only the node's optional secretToken. The
 * run row, with its payload, is committed before the 200; the workflow is started right after, and
 * the reconciler starts it later if Temporal was unreachable. Nothing accepted is lost.
 *
 * <p>The call is checked against the trigger's target as remembered from earlier calls ({@link
 * TriggerTargets}); the insert confirms that target against the database in the same statement.
 * When it cannot (the automation was paused, edited or deleted since), or when the remembered
 * target refuses the call, the target is looked up again and the call decided on that.
 */
@Service
class TriggerService {

  /** Lookups of the target per call before giving up on an automation that keeps changing. */
  private static final int LOOKUPS = 3;

  private final CanvasRepository canvases;
  private final TriggerRefusals refusals;
  private final CanvasSecrets canvasSecrets;
  private final TriggerTargets targets;
  private final RunRepository runs;
  private final RunBeginnings beginnings;
  private final JsonMapper mapper;
  private final RunCauses causes;
  private final CrmEventTriggers eventTriggers;
  private final Reenrollment reenrollment;
  private final TransactionTemplate transaction;

  TriggerService(
      CanvasRepository canvases,
      TriggerRefusals refusals,
      CanvasSecrets canvasSecrets,
      TriggerTargets targets,
      RunRepository runs,
      RunBeginnings beginnings,
      JsonMapper mapper,
      RunCauses causes,
      CrmEventTriggers eventTriggers,
      Reenrollment reenrollment,
      TransactionTemplate transaction) {
    this.reenrollment = reenrollment;
    this.transaction = transaction;
    this.causes = causes;
    this.eventTriggers = eventTriggers;
    this.canvases = canvases;
    this.refusals = refusals;
    this.canvasSecrets = canvasSecrets;
    this.targets = targets;
    this.runs = runs;
    this.beginnings = beginnings;
    this.mapper = mapper;
  }

  /**
   * Accepts one call: the run it stored, or the earlier run of the same Idempotency-Key.
   *
   * @throws ApiException the spec's refusals (401, 404, 413, 422), 409 when the automation kept
   *     changing while the call was being accepted, and 503 with Retry-After when the admission
   *     refused it
   */
  AutomationRun fire(Call call) {
    // a repeated delivery is answered from what it found stored, never from a remembered target
    Optional<TriggerTarget> remembered =
        call.idempotencyKey() == null
            ? targets.remembered(call.tenant(), call.nodeId())
            : Optional.empty();
    if (remembered.isPresent()) {
      try {
        Optional<AutomationRun> run = accept(call, remembered.get());
        if (run.isPresent()) {
          return run.get();
        }
      } catch (ApiException refused) {
        if (refused.status() == HttpStatus.SERVICE_UNAVAILABLE) {
          throw refused; // the admission's answer, whatever the target
        }
        // refused on a target that may be out of date: the stored one decides
      }
    }
    for (int lookup = 1; ; lookup++) {
      TriggerTarget target =
          targets
              .lookUp(call.tenant(), call.nodeId())
              .orElseThrow(() -> refusals.notATrigger(call.tenant(), call.nodeId()));
      Optional<AutomationRun> run = accept(call, target);
      if (run.isPresent()) {
        return run.get();
      }
      if (lookup == LOOKUPS) {
        throw ApiException.conflict(
            "The automation changed while this call was being accepted; send it again.");
      }
    }
  }

  /**
   * @param idempotencyKey trimmed; null when the header is missing or blank
   * @param cause the CRM-Cause header, or null
   */
  record Call(
      UUID tenant, String nodeId, String secret, String idempotencyKey, String body, String cause) {
    Call {
      idempotencyKey =
          idempotencyKey == null || idempotencyKey.isBlank() ? null : idempotencyKey.trim();
    }
  }

  /**
   * A call whose cause the loop rules refuse, or whose record the flow's re-enrollment rule holds
   * back: no run, answered 200 with why ({@code reason}, {@code message}).
   */
  static final class NotStarted extends RuntimeException {
    private final transient Map<String, String> reason;

    /** Reports the refusal (logs, metrics) once it is the answer; a repeat's earlier run is not. */
    private final transient Runnable whenAnswered;

    NotStarted(Map<String, String> reason) {
      this(reason, () -> {});
    }

    NotStarted(Map<String, String> reason, Runnable whenAnswered) {
      super(reason.get("message"), null, false, false);
      this.reason = reason;
      this.whenAnswered = whenAnswered;
    }

    Map<String, String> reason() {
      return reason;
    }
  }

  /**
   * Checks the call against the target, in the order of the spec's errors, and stores the run.
   *
   * @return the run (or the earlier run with the same Idempotency-Key); empty when the database no
   *     longer matches the target
   */
  private Optional<AutomationRun> accept(Call call, TriggerTarget trigger) {
    UUID tenant = call.tenant();
    String nodeId = call.nodeId();
    CanvasSnapshot version =
        canvases.versionOrEmpty(tenant, trigger.sequenceId(), trigger.currentVersion());
    Canvas canvas = version.toCanvas();
    CanvasNode node =
        canvas.node(nodeId).orElseThrow(() -> ApiException.notFound("Trigger node", nodeId));
    if (!NodeType.WEBHOOK_TRIGGER.value().equals(trigger.type())) {
      throw TriggerRefusals.notAWebhookTrigger(nodeId, trigger.type());
    }
    if (!Sequence.AUTOMATION.equals(trigger.flowType())) {
      throw TriggerRefusals.inASequence(nodeId);
    }
    if (node.config("secretToken") instanceof String stored && !stored.isEmpty()) {
      String expected = canvasSecrets.triggerSecret(tenant, trigger.sequenceId(), nodeId, stored);
      String secret = call.secret();
      if (secret == null
          || !MessageDigest.isEqual(
              secret.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8))) {
        throw TriggerRefusals.wrongSecret(secret);
      }
    }
    if (!Sequence.ACTIVE.equals(trigger.status())) {
      throw TriggerRefusals.notActive(trigger.status());
    }
    Object payload = parse(call.body());
    String overlongId = RunRecords.whereIdTooLong(payload);
    if (overlongId != null) {
      throw ApiException.badRequest(
          overlongId,
          "must be at most " + RunRecords.MAX_ID_LENGTH + " characters: it names the run's record");
    }
    EventCause cause = causes.ofHeader(tenant, call.cause());
    String key = call.idempotencyKey();
    if (key != null && key.length() > 255) {
      throw ApiException.badRequest("Idempotency-Key", "must be at most 255 characters");
    }
    try {
      return begin(call, trigger, version, canvas, payload, cause);
    } catch (NotStarted notStarted) {
      // a repeated delivery is answered with its earlier run, whatever the rules say of it now
      Optional<AutomationRun> earlier =
          key == null ? Optional.empty() : runs.findByIdempotencyKey(tenant, nodeId, key);
      if (earlier.isPresent()) {
        return earlier;
      }
      notStarted.whenAnswered.run();
      throw notStarted;
    }
  }

  /**
   * Stores the run of an accepted call unless the loop rules or the flow's re-enrollment rule hold
   * it back. With an Idempotency-Key, the insert answers a repeated delivery with its earlier run
   * and stores nothing (a re-enrollment claim made for it is rolled back).
   */
  private Optional<AutomationRun> begin(
      Call call,
      TriggerTarget trigger,
      CanvasSnapshot version,
      Canvas canvas,
      Object payload,
      EventCause cause) {
    UUID tenant = call.tenant();
    String nodeId = call.nodeId();
    String key = call.idempotencyKey();
    if (cause != null) {
      Map<String, String> refused =
          eventTriggers.refusalOfCall(tenant, cause, trigger.sequenceId());
      if (refused != null) {
        throw new NotStarted(
            refused,
            () -> eventTriggers.callRefused(cause, trigger.sequenceId(), refused.get("reason")));
      }
    }
    UUID runId = UUID.randomUUID();
    RunBeginnings.Beginning run =
        RunBeginnings.Beginning.of(
                new RunRepository.NewRun(
                        runId,
                        tenant,
                        trigger.sequenceId(),
                        trigger.currentVersion(),
                        nodeId,
                        nodeId,
                        payload,
                        key,
                        null)
                    .causedBy(cause == null ? null : cause.asMap()),
                RunBeginnings.Start.SOON)
            .pinnedTo(canvas)
            .withTriggerLogged(trigger.type())
            .refusedWhenTooLarge()
            .refusedWhenFull();
    Optional<AutomationRun> inserted;
    try {
      String record =
          version.settings().limitsReenrollment() ? RunRecords.of(canvas, payload) : null;
      inserted =
          record == null
              ? beginnings.begin(run)
              : transaction.execute(
                  tx -> {
                    reenrollment
                        .claim(tenant, trigger.sequenceId(), version.settings(), record, runId)
                        .ifPresent(
                            refusal -> {
                              throw new NotStarted(
                                  Map.of(
                                      "reason", Reenrollment.REASON, "message", refusal.message()));
                            });
                    Optional<AutomationRun> stored = beginnings.begin(run);
                    // nothing stored, or an earlier run answers the repeat: nothing claimed
                    if (stored.isEmpty() || !stored.get().id().equals(runId)) {
                      tx.setRollbackOnly();
                    }
                    return stored;
                  });
    } catch (RunBeginnings.TooLarge tooLarge) {
      throw TriggerRefusals.tooLargeToStart(tooLarge);
    } catch (RunBeginnings.NotAdmitted notAdmitted) {
      throw TriggerRefusals.overloaded(notAdmitted.decision());
    }
    if (inserted.isPresent()) {
      return inserted;
    }
    // a concurrent delivery with the same key won the insert, or the target is out of date
    return key == null ? Optional.empty() : runs.findByIdempotencyKey(tenant, nodeId, key);
  }

  private Object parse(String body) {
    if (body == null || body.isBlank()) {
      throw ApiException.badRequest("body", "a JSON body is required");
    }
    try {
      if (body.contains("\\u0000")) { // rare: only then look closer
        JsonBodies.refuseUnstorable(mapper.readTree(body));
      }
      Object payload = mapper.readValue(body, Object.class);
      // 1e400 reads as an infinite double, which would be stored as the string "Infinity"
      JsonBodies.refuseNonFinite(payload);
      return payload;
    } catch (JacksonException e) {
      throw ApiException.badRequest("body", "is not valid JSON: " + e.getOriginalMessage());
    }
  }
}
