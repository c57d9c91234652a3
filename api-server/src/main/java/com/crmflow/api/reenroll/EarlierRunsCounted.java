package com.crmflow.api.reenroll;

import com.crmflow.api.flow.CanvasRepository;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.flow.FlowChanged;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.SequenceRepository;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * When a flow's canvas version first limits re-enrollment (the version before it did not), the
 * records of its runs so far are entered, in the change's transaction: the rule counts the runs
 * started before it was set.
 */
@Component
class EarlierRunsCounted {

  private final SequenceRepository sequences;
  private final CanvasRepository canvases;
  private final Reenrollment reenrollment;

  EarlierRunsCounted(
      SequenceRepository sequences, CanvasRepository canvases, Reenrollment reenrollment) {
    this.sequences = sequences;
    this.canvases = canvases;
    this.reenrollment = reenrollment;
  }

  @EventListener
  void flowChanged(FlowChanged change) {
    Sequence sequence = sequences.find(change.tenantId(), change.sequenceId()).orElseThrow();
    int version = sequence.currentVersion();
    if (!canvases.settings(change.tenantId(), sequence.id(), version).limitsReenrollment()) {
      return;
    }
    if (version > 1
        && canvases.settings(change.tenantId(), sequence.id(), version - 1).limitsReenrollment()) {
      return; // counted when the rule was set
    }
    CanvasSnapshot now = canvases.versionOrEmpty(change.tenantId(), sequence.id(), version);
    reenrollment.enterEarlierRuns(
        change.tenantId(), sequence.id(), RunRecords.sqlOf(now.toCanvas()));
  }
}
