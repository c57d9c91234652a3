package com.crmflow.workflow.contract;

import com.crmflow.workflow.canvas.Canvas;
import java.util.List;
import java.util.Map;

/**
 * A {@link RunInput} for tests, built field by field: a trigger's first run of the canvas from
 * "hook" in tenant "tenant" and sequence "sequence", with an empty payload, no contact, remote
 * activities, threads for branches, and no {@code startedWithChanges} (every change asked with
 * {@code Workflow.getVersion}) unless a setter says otherwise.
 */
public final class RunInputBuilder {

  private String tenantId = "tenant";
  private String sequenceId = "sequence";
  private final String runId;
  private int canvasVersion = 1;
  private final Canvas canvas;
  private String startNodeId = "hook";
  private Map<String, Object> triggerPayload = Map.of();
  private Map<String, Object> contact;
  private Map<String, Object> priorOutputs = Map.of();
  private List<String> completedNodeIds = List.of();
  private Boolean localActivities = false;
  private Boolean inlineChains = false;
  private Boolean triggerLogged = false;
  private RunResume resume;
  private List<String> alsoStartAt;
  private Map<String, Integer> rerunOrdinals;
  private Map<String, String> delaysWakeUp;
  private List<String> startedWithChanges;

  private RunInputBuilder(String runId, Canvas canvas) {
    this.runId = runId;
    this.canvas = canvas;
  }

  /** A run of the canvas, with the defaults above. */
  public static RunInputBuilder run(String runId, Canvas canvas) {
    return new RunInputBuilder(runId, canvas);
  }

  /** A builder holding every field of the input. */
  public static RunInputBuilder from(RunInput input) {
    RunInputBuilder builder = new RunInputBuilder(input.runId(), input.canvas());
    builder.tenantId = input.tenantId();
    builder.sequenceId = input.sequenceId();
    builder.canvasVersion = input.canvasVersion();
    builder.startNodeId = input.startNodeId();
    builder.triggerPayload = input.triggerPayload();
    builder.contact = input.contact();
    builder.priorOutputs = input.priorOutputs();
    builder.completedNodeIds = input.completedNodeIds();
    builder.localActivities = input.localActivities();
    builder.inlineChains = input.inlineChains();
    builder.triggerLogged = input.triggerLogged();
    builder.resume = input.resume();
    builder.alsoStartAt = input.alsoStartAt();
    builder.rerunOrdinals = input.rerunOrdinals();
    builder.delaysWakeUp = input.delaysWakeUp();
    builder.startedWithChanges = input.startedWithChanges();
    return builder;
  }

  public RunInputBuilder tenant(String tenantId, String sequenceId) {
    this.tenantId = tenantId;
    this.sequenceId = sequenceId;
    return this;
  }

  public RunInputBuilder startAt(String startNodeId) {
    this.startNodeId = startNodeId;
    return this;
  }

  public RunInputBuilder payload(Map<String, Object> triggerPayload) {
    this.triggerPayload = triggerPayload;
    return this;
  }

  public RunInputBuilder contact(Map<String, Object> contact) {
    this.contact = contact;
    return this;
  }

  /** A retry's outputs of the nodes that ran before and their ids. */
  public RunInputBuilder after(Map<String, Object> priorOutputs, List<String> completedNodeIds) {
    this.priorOutputs = priorOutputs;
    this.completedNodeIds = completedNodeIds;
    return this;
  }

  public RunInputBuilder localActivities(Boolean localActivities) {
    this.localActivities = localActivities;
    return this;
  }

  public RunInputBuilder inlineChains(Boolean inlineChains) {
    this.inlineChains = inlineChains;
    return this;
  }

  public RunInputBuilder triggerLogged(Boolean triggerLogged) {
    this.triggerLogged = triggerLogged;
    return this;
  }

  /** As api-server starts a trigger's run on its embedded defaults: all three true. */
  public RunInputBuilder embedded() {
    return localActivities(true).inlineChains(true).triggerLogged(true);
  }

  public RunInputBuilder resume(RunResume resume) {
    this.resume = resume;
    return this;
  }

  public RunInputBuilder alsoStartAt(List<String> alsoStartAt) {
    this.alsoStartAt = alsoStartAt;
    return this;
  }

  public RunInputBuilder rerunOrdinals(Map<String, Integer> rerunOrdinals) {
    this.rerunOrdinals = rerunOrdinals;
    return this;
  }

  public RunInputBuilder delaysWakeUp(Map<String, String> delaysWakeUp) {
    this.delaysWakeUp = delaysWakeUp;
    return this;
  }

  public RunInputBuilder startedWithChanges(List<String> startedWithChanges) {
    this.startedWithChanges = startedWithChanges;
    return this;
  }

  public RunInput build() {
    return new RunInput(
        tenantId,
        sequenceId,
        runId,
        canvasVersion,
        canvas,
        startNodeId,
        triggerPayload,
        contact,
        priorOutputs,
        completedNodeIds,
        localActivities,
        inlineChains,
        triggerLogged,
        resume,
        alsoStartAt,
        rerunOrdinals,
        delaysWakeUp,
        startedWithChanges,
        null);
  }
}
