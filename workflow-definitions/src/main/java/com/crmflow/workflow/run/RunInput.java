package com.crmflow.workflow.run;

import com.crmflow.workflow.canvas.Canvas;
import java.util.List;
import java.util.Map;

/**
 * What a run is started with: the pinned canvas version (editing the canvas later never changes a
 * run in flight) and the trigger payload.
 *
 * @param startNodeId where the walk begins: the trigger node, or for a retry the failed node
 * @param priorOutputs for a retry: the outputs of the nodes that ran before the failed one, keyed
 *     as variables ({@code http_request_1}, ...); empty otherwise
 */
public record RunInput(
    String tenantId,
    String sequenceId,
    String runId,
    int canvasVersion,
    Canvas canvas,
    String startNodeId,
    Map<String, Object> triggerPayload,
    Map<String, Object> contact,
    Map<String, Object> priorOutputs,
    List<String> completedNodeIds) {}
