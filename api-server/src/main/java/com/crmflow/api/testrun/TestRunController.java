package com.crmflow.api.testrun;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.run.AutomationRun;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/** Starts test runs of a flow: {@code POST /api/v1/sequences/{id}/test-runs}. */
@RestController
@RequestMapping("/api/v1/sequences")
class TestRunController {

  private final TestRuns testRuns;

  TestRunController(TestRuns testRuns) {
    this.testRuns = testRuns;
  }

  /**
   * 201 {@code {run_id, run}}: a test run of the flow's latest canvas (a draft's too) for {@code
   * contact_id}, with {@code payload} as its trigger's payload, of the whole flow or of {@code
   * node_id} alone. Read it as any run: {@code GET /api/v1/automation-runs/{run_id}}.
   */
  @PostMapping("/{id}/test-runs")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  TestRunAnswer start(
      Caller caller,
      @PathVariable UUID id,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content =
                  @io.swagger.v3.oas.annotations.media.Content(
                      schema = @Schema(implementation = TestRunRequest.class)))
          @RequestBody(required = false)
          JsonNode body) {
    AutomationRun run = testRuns.start(caller, id, TestRunRequest.read(body));
    return new TestRunAnswer(run.id(), run);
  }

  /** {@code {run_id, run}}. */
  record TestRunAnswer(UUID runId, AutomationRun run) {}
}
