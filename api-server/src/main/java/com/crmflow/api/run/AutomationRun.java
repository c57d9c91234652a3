package com.crmflow.api.run;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A run record (the spec's Automation run), plus workflow_id (where to find it in the Temporal UI),
 * canvas_version, retry_of and enrollment_id (set for the runs of sequence enrollments), cause, and
 * trace_id: the W3C trace (32 lowercase hex digits) the run was accepted and started in, null for
 * runs older than tracing. node_log entries keep the spec's camelCase names.
 */
public record AutomationRun(
    UUID id,
    UUID tenantId,
    UUID sequenceId,
    int canvasVersion,
    String triggerNodeId,
    String startNodeId,
    Object triggerPayload,
    @Schema(
            description =
                "what started the run, when one of the tenant's runs did: {run_id, sequence_id,"
                    + " node_id, chain, depth, root}, the run whose write or call started it, the"
                    + " flows whose runs led to it (chain, depth its length) and what started the"
                    + " first of them (root). Set by the service alone; null for a run a client,"
                    + " a schedule or an enrollment started. A cause in the trigger payload is the"
                    + " caller's data, never this.",
            nullable = true)
        Map<String, Object> cause,
    @Schema(allowableValues = {"running", "completed", "failed", "cancelled"}) String status,
    @Schema(
            description =
                "the nodes run, in execution order (only on a single run): nodeId, nodeType,"
                    + " status (running, completed, failed, skipped), startedAt, completedAt,"
                    + " output or error, spanId (the W3C span id of the span that did the node's"
                    + " work: the request for a trigger, the activity for an http_request, else"
                    + " the workflow task) and input: what the node ran with, {config, read}."
                    + " config is the node's config with its template variables filled in and"
                    + " each secret as ********; read maps each variable the node read"
                    + " (contact.email) to its value. A string over 2,000 characters is cut, an"
                    + " input over 64 KiB is {omitted, bytes}; triggers and nodes that never"
                    + " started have no input. For a reader without the read scope of the"
                    + " records a node holds (what it reads and writes, and what the variables"
                    + " it reads hold), the node's output keeps only the keys its type makes"
                    + " itself (a statusCode, a condition's result, the id of a written record),"
                    + " its input is withheld and its error keeps only an HTTP status, each"
                    + " naming the missing scopes.")
        List<Map<String, Object>> nodeLog,
    @Schema(
            description =
                "why the run failed: node <id> (<type>) failed: <message>. For a reader without"
                    + " the read scope of the records that node holds, the message keeps only an"
                    + " HTTP status and names the scopes that would show the rest.",
            nullable = true)
        String error,
    String workflowId,
    UUID retryOf,
    UUID enrollmentId,
    OffsetDateTime startedAt,
    OffsetDateTime completedAt,
    OffsetDateTime createdAt,
    @Schema(
            description =
                "the W3C trace id of the trace the run was accepted and started in (32 lowercase"
                    + " hex digits); null for runs recorded before tracing",
            example = "4bf92f3577b34da6a3ce929d0e0e4736",
            nullable = true)
        String traceId,
    @Schema(
            description =
                "true for a test run (POST /api/v1/sequences/{id}/test-runs): its nodes that send,"
                    + " call, post or write show what they would do (dry_run: true) and did"
                    + " nothing, and its delays and waits did not wait")
        boolean test,
    @Schema(
            description =
                "why a completed run ended before its last node: {reason: goal, at_node}, its"
                    + " contact met the flow's goal when the run was at that node (a delay it"
                    + " waited in, or the node it was about to start); null for every other run",
            nullable = true,
            example = "{\"reason\": \"goal\", \"at_node\": \"wait\"}")
        Map<String, Object> exit,
    @Schema(
            description =
                "the versions of its flow the run ran before canvas_version, oldest first: a"
                    + " waiting run moved to another version (POST"
                    + " /api/sequences/{id}/runs/move) goes on in it; empty for a run never"
                    + " moved")
        List<Integer> movedFromVersions) {

  public AutomationRun withNodeLog(List<Map<String, Object>> log) {
    return new AutomationRun(
        id,
        tenantId,
        sequenceId,
        canvasVersion,
        triggerNodeId,
        startNodeId,
        triggerPayload,
        cause,
        status,
        log,
        error,
        workflowId,
        retryOf,
        enrollmentId,
        startedAt,
        completedAt,
        createdAt,
        traceId,
        test,
        exit,
        movedFromVersions);
  }
}
