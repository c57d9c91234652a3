package com.crmflow.api.schedule;

import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import com.crmflow.api.run.RunBeginnings;
import com.crmflow.api.run.RunRepository;
import com.crmflow.api.tracing.LinkedTraces;
import com.crmflow.workflow.schedule.ScheduleActivities;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * One fire of a schedule: a run whose id derives from the schedule node and the scheduled time (so
 * a retried activity stores and starts nothing twice), with the scheduled time in its payload.
 */
@Component("scheduleActivities")
class ScheduleActivitiesImpl implements ScheduleActivities {

  private final SequenceRepository sequences;
  private final RunBeginnings beginnings;

  private final LinkedTraces traces;

  ScheduleActivitiesImpl(
      SequenceRepository sequences, RunBeginnings beginnings, LinkedTraces traces) {
    this.traces = traces;
    this.sequences = sequences;
    this.beginnings = beginnings;
  }

  @Override
  public String startScheduledRun(
      String tenantId, String sequenceId, String nodeId, int canvasVersion, String scheduledAt) {
    UUID tenant = UUID.fromString(tenantId);
    UUID sequence = UUID.fromString(sequenceId);
    Optional<SequenceRepository.TriggerState> state = sequences.triggerState(tenant, sequence);
    if (state.isEmpty() || !Sequence.ACTIVE.equals(state.get().status())) {
      return null; // paused or archived a moment ago; its schedule is being stopped
    }
    UUID runId =
        UUID.nameUUIDFromBytes(
            ("schedule:" + tenantId + ":" + nodeId + ":" + scheduledAt)
                .getBytes(StandardCharsets.UTF_8));
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("scheduled_at", scheduledAt);
    payload.put("node_id", nodeId);
    // the run's trace starts here, linked to the schedule's fire (this activity)
    return traces.inNewTraceFromHere(
        "schedule fire",
        () -> {
          // a repeat of this activity finds the run stored; the reconciler starts it if need be
          beginnings.begin(
              RunBeginnings.Beginning.of(
                  new RunRepository.NewRun(
                      runId,
                      tenant,
                      sequence,
                      canvasVersion,
                      nodeId,
                      nodeId,
                      payload,
                      "schedule:" + scheduledAt,
                      null),
                  RunBeginnings.Start.NOW));
          return runId.toString();
        });
  }
}
