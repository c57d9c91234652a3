package com.crmflow.workflow.schedule;

import java.util.Map;

/**
 * What a schedule runs on: the automation's schedule_trigger node and the canvas version its runs
 * pin.
 *
 * @param firedUpTo the last fire time already handled (ISO-8601), carried over continue-as-new;
 *     null when the schedule starts (the first fire is the next one after now)
 */
public record ScheduleInput(
    String tenantId,
    String sequenceId,
    String nodeId,
    int canvasVersion,
    Map<String, Object> config,
    String firedUpTo) {}
