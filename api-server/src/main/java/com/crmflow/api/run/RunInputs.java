package com.crmflow.api.run;

import com.crmflow.api.contact.ContactRepository;
import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.contract.RunResult;
import com.crmflow.workflow.contract.RunResume;
import com.crmflow.workflow.node.FlowAccess;
import com.crmflow.workflow.registration.WorkflowImplementations;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * A run's workflow input ({@link RunInput}): its pinned canvas, payload and contact, what a retry
 * carries on ({@link RetryChains}) and where a resumed run stands.
 */
@Component
public class RunInputs {

  private final CanvasRepository canvases;
  private final ContactRepository contacts;
  private final NodeTypes nodeTypes;
  private final boolean localActivities;

  /** Whether each canvas version reads the contact (see {@link #contactOf}). */
  private final Cache<CanvasVersion, Boolean> readsContact =
      Caffeine.newBuilder().maximumSize(10_000).expireAfterAccess(Duration.ofHours(1)).build();

  private record CanvasVersion(UUID tenantId, UUID sequenceId, int version) {}

  @Autowired
  RunInputs(
      CanvasRepository canvases,
      ContactRepository contacts,
      NodeTypes nodeTypes,
      CrmProperties properties) {
    this(canvases, contacts, nodeTypes, properties.runs().localActivities());
  }

  /**
   * @param localActivities whether this process's own worker runs the workflows, the recorder and
   *     http_request (the embedded defaults): runs then use local activities for them. False in the
   *     distributed profile, where workflow-workers without this server's data run the workflows.
   */
  RunInputs(
      CanvasRepository canvases,
      ContactRepository contacts,
      NodeTypes nodeTypes,
      boolean localActivities) {
    this.canvases = canvases;
    this.nodeTypes = nodeTypes;
    this.contacts = contacts;
    this.localActivities = localActivities;
  }

  /**
   * The run's workflow input.
   *
   * @param canvas the run's pinned canvas
   * @param retry what the run carries on from the runs it retries ({@link
   *     RetryChains.RetryContext#NONE} for a run that retries none)
   * @param startLogged whether the start node's log entry exists already (RunInput#triggerLogged)
   * @param resume where the run's node log stands, or null for a run just accepted
   */
  RunInput of(
      AutomationRun run,
      Canvas canvas,
      RetryChains.RetryContext retry,
      boolean startLogged,
      RunResume resume) {
    // a test of one node runs that node alone: its canvas holds nothing else
    Canvas walked =
        run.test() && !run.startNodeId().equals(run.triggerNodeId())
            ? new Canvas(canvas.node(run.startNodeId()).stream().toList(), List.<CanvasEdge>of())
            : canvas;
    return new RunInput(
        run.tenantId().toString(),
        run.sequenceId().toString(),
        run.id().toString(),
        run.canvasVersion(),
        walked,
        run.startNodeId(),
        payloadMap(run.triggerPayload()),
        contactOf(run, canvas),
        retry.priorOutputs(),
        retry.completedNodeIds(),
        localActivities,
        true,
        startLogged,
        retry.resumeWith(resume),
        retry.alsoStartAt(),
        retry.rerunOrdinals(),
        retry.delaysWakeUp(),
        WorkflowImplementations.FRESH_RUN_CHANGES,
        run.test() ? Boolean.TRUE : null);
  }

  /** The run's pinned canvas version. */
  Canvas canvasOf(AutomationRun run) {
    return canvases
        .version(run.tenantId(), run.sequenceId(), run.canvasVersion())
        .orElseThrow()
        .toCanvas();
  }

  /**
   * The run's node log as a {@link RunResume}: finished nodes with their outcome, delays still
   * running with their seq, wake-up time and start. Nodes finished but not yet logged when the
   * workflow was lost run again, with the same idempotency keys (run id and node id).
   */
  static RunResume whereItStood(List<NodeLogEntry> log) {
    Map<String, RunResume.NodeOutcome> done = new HashMap<>();
    Map<String, RunResume.WaitingDelay> waiting = new HashMap<>();
    int lastSeq = 0;
    for (NodeLogEntry entry : log) {
      lastSeq = Math.max(lastSeq, entry.seq());
      if (!RunResult.RUNNING.equals(entry.status())) {
        done.put(
            entry.nodeId(),
            new RunResume.NodeOutcome(entry.status(), entry.output(), entry.error()));
      } else if (entry.output() != null && entry.output().get("until") instanceof String until) {
        waiting.put(
            entry.nodeId(), new RunResume.WaitingDelay(entry.seq(), until, entry.startedAt()));
      }
    }
    return new RunResume(done, waiting, lastSeq);
  }

  /** {{trigger.*}} reads the payload's fields; a payload that is no object is {{trigger.value}}. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> payloadMap(Object payload) {
    if (payload instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    Map<String, Object> wrapped = new HashMap<>();
    wrapped.put("value", payload);
    return wrapped;
  }

  /**
   * {{contact.*}}: the contact named by the payload's contact_id (or, for a CRM event, its
   * data.contact_id), if it is one of the tenant's. A flow that does not read the contact ({@link
   * FlowAccess#readsContact}) is given only its id (for a crm_update of the run's contact): a run
   * receives a record only when its flow reads it.
   */
  private Map<String, Object> contactOf(AutomationRun run, Canvas canvas) {
    Map<String, Object> payload = payloadMap(run.triggerPayload());
    Object named = payload.get("contact_id");
    if (named == null && payload.get("data") instanceof Map<?, ?> data) {
      named = data.get("contact_id");
    }
    if (named instanceof String id) {
      try {
        return contacts
            .find(run.tenantId(), UUID.fromString(id))
            .map(
                c ->
                    readsContact(run, canvas)
                        ? c.asEventData()
                        : Map.<String, Object>of("contact_id", c.id().toString()))
            .orElse(null);
      } catch (IllegalArgumentException notAUuid) {
        return null;
      }
    }
    return null;
  }

  /** Whether the run's canvas version reads the contact (remembered: a version never changes). */
  private boolean readsContact(AutomationRun run, Canvas canvas) {
    return readsContact.get(
        new CanvasVersion(run.tenantId(), run.sequenceId(), run.canvasVersion()),
        key -> FlowAccess.of(canvas, nodeTypes).readsContact());
  }
}
