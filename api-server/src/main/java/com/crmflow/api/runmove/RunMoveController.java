package com.crmflow.api.runmove;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * Moves a flow's waiting runs to another version of it (docs/automations.md, "Runs in progress").
 * The scopes of saving the flow: sequences:write, and those the target version acts with.
 */
@RestController
@RequestMapping("/api/sequences/{sequenceId}/runs")
class RunMoveController {

  private final WaitingRunMoves moves;

  RunMoveController(WaitingRunMoves moves) {
    this.moves = moves;
  }

  /**
   * With {@code dry_run}: 200, where the runs of the source versions wait (per version and node),
   * how many would move and where, how many cannot and why; nothing changes. Without: 202 {@code
   * {move}}, a durable move carried out a page at a time; the same request while it is under way
   * answers with the same move.
   */
  @PostMapping("/move")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ApiResponse(
      responseCode = "200",
      description = "the dry run",
      content = @Content(schema = @Schema(implementation = WaitingRunMoves.DryRun.class)))
  @ApiResponse(
      responseCode = "202",
      description = "the move, under way",
      content = @Content(schema = @Schema(implementation = MoveAnswer.class)))
  ResponseEntity<Object> move(
      Caller caller,
      @PathVariable UUID sequenceId,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = RunMoveRequest.class)))
          @RequestBody
          JsonNode body) {
    RunMoveRequest request = RunMoveRequest.of(JsonBodies.requireObject(body));
    WaitingRunMoves.Plan plan = moves.plan(caller, sequenceId, request);
    if (request.dry()) {
      return ResponseEntity.ok(moves.dryRun(caller, plan));
    }
    return ResponseEntity.status(HttpStatus.ACCEPTED)
        .body(new MoveAnswer(moves.start(caller, plan)));
  }

  /** 200 {@code {move}}: runs moved, skipped (with reasons), pending, status. */
  @GetMapping("/moves/{moveId}")
  @RequiresScope(Scope.SEQUENCES_READ)
  MoveAnswer get(Caller caller, @PathVariable UUID sequenceId, @PathVariable UUID moveId) {
    return new MoveAnswer(
        moves
            .find(caller.tenantId(), sequenceId, moveId)
            .orElseThrow(() -> ApiException.notFound("Move", moveId)));
  }

  /** 200 {@code {move}}: stopped; the runs it moved stay moved, the others stay where they are. */
  @DeleteMapping("/moves/{moveId}")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  MoveAnswer stop(Caller caller, @PathVariable UUID sequenceId, @PathVariable UUID moveId) {
    return new MoveAnswer(
        moves
            .stop(caller.tenantId(), sequenceId, moveId)
            .orElseThrow(() -> ApiException.notFound("Move", moveId)));
  }

  /** {@code {move}}. */
  record MoveAnswer(WaitingRunMoves.MoveView move) {}
}
