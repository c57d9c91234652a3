package com.crmflow.api.generate;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.flow.CanvasService;
import com.crmflow.api.flow.CanvasSnapshot;
import com.crmflow.api.flow.CanvasViews;
import com.crmflow.api.flow.FlowSettings;
import com.crmflow.api.flow.Sequence;
import com.crmflow.api.flow.StoredEdge;
import com.crmflow.api.flow.StoredNode;
import com.crmflow.api.flow.TriggerLoosening;
import com.crmflow.api.ratelimit.PerKeyLimiter;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasProblem;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * POST /api/sequences/:id/generate: a prompt becomes a flow that replaces the canvas (a new
 * version). 400 empty or too long prompt, 404 unknown sequence, 422 nothing valid, 429 over the
 * tenant's generation budget. {@code X-Flow-Generator} says which generator drafted it (see {@link
 * FlowGeneration}).
 */
@RestController
class GenerateController {

  /**
   * @param preview true: answer the generated flow without saving it (the canvas keeps its version)
   */
  record GenerateRequest(String prompt, Boolean preview) {}

  static final String GENERATOR_HEADER = "X-Flow-Generator";

  private final FlowGeneration generation;
  private final CanvasService canvases;
  private final CrmProperties.Generate settings;
  private final PerKeyLimiter budgets = new PerKeyLimiter();

  GenerateController(FlowGeneration generation, CanvasService canvases, CrmProperties properties) {
    this.generation = generation;
    this.canvases = canvases;
    this.settings = properties.generate();
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description =
          "{nodes, edges}: the flow generated and saved as the canvas's new version (with"
              + " preview: true, generated and not saved)",
      headers =
          @Header(
              name = GENERATOR_HEADER,
              description =
                  "llm: the language model drafted the flow; offline: the offline parser did (no"
                      + " model configured, the tenant kept off it, or the model failed)",
              schema =
                  @Schema(
                      type = "string",
                      allowableValues = {"llm", "offline"})))
  @PostMapping("/api/sequences/{sequenceId}/generate")
  @RequiresScope(Scope.SEQUENCES_WRITE)
  GeneratedFlow generate(
      Caller caller,
      @PathVariable UUID sequenceId,
      @RequestBody GenerateRequest body,
      @Parameter(description = TriggerLoosening.CONFIRM_DOC)
          @RequestParam(name = TriggerLoosening.CONFIRM, defaultValue = "false")
          boolean looserConfirmed,
      HttpServletResponse response) {
    String prompt = body.prompt() == null ? "" : body.prompt().trim();
    if (prompt.isEmpty()) {
      throw ApiException.badRequest("prompt", "is required");
    }
    if (prompt.length() > settings.maxPromptLength()) {
      throw ApiException.badRequest(
          "prompt", "must be at most " + settings.maxPromptLength() + " characters");
    }
    Sequence sequence = canvases.sequence(caller.tenantId(), sequenceId);
    spendBudget(caller.tenantId());

    FlowGeneration.Generated generated =
        generation.generate(caller.tenantId(), prompt, sequence.isAutomation());
    Map<String, String> generator = Map.of(GENERATOR_HEADER, generated.generator().header());
    if (!generated.unclear().isEmpty()) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "Nothing was saved: the prompt does not say which record or field "
              + (generated.unclear().size() == 1 ? "a clause means" : "some clauses mean")
              + ". Each error quotes the clause (as read, in English) and what it leaves open;"
              + " name the record and the field, e.g. \"the deal's amount\", \"the contact's"
              + " lifecycle stage\".",
          generated.unclear().stream()
              .map(u -> new FieldProblem("prompt", "\"" + u.clause() + "\": " + u.question()))
              .toList(),
          generator);
    }
    if (generated.canvas().isEmpty()) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "No flow could be generated from the prompt; name steps such as 'wait 2"
              + " days', 'send an email with subject ...', 'call https://...'.",
          List.of(new FieldProblem("prompt", "no step was recognised")),
          generator);
    }
    Canvas canvas = generated.canvas().get();
    List<CanvasProblem> problems = generation.problems(canvas, sequence.isAutomation());
    if (!problems.isEmpty()) {
      throw ApiException.unprocessable(
          "The generated flow is not valid.",
          problems.stream().map(CanvasService::asFieldProblem).toList());
    }
    FlowGenerator.Reenroll reenroll = generated.reenroll();
    if (reenroll != null
        && reenroll.afterDays() != null
        && (reenroll.afterDays() < 1
            || reenroll.afterDays() > FlowSettings.MAX_REENROLL_AFTER_DAYS)) {
      throw new ApiException(
          HttpStatus.UNPROCESSABLE_CONTENT,
          "The generated flow is not valid.",
          List.of(
              new FieldProblem(
                  "prompt",
                  "names a gap a flow does not take: a flow re-enrolls a record after 1 to "
                      + FlowSettings.MAX_REENROLL_AFTER_DAYS
                      + " days")),
          generator);
    }
    FlowSettings latest = canvases.latest(caller.tenantId(), sequenceId).settings();
    // the prompt's re-enrollment rule, beside the flow's other settings as they are
    FlowSettings settings =
        reenroll == null
            ? latest
            : new FlowSettings(latest.timezone(), reenroll.rule(), reenroll.afterDays());
    CanvasSnapshot saved =
        Boolean.TRUE.equals(body.preview())
            ? unsaved(canvas, settings)
            : canvases.replaceWith(caller, sequenceId, canvas, settings, looserConfirmed);
    response.setHeader(GENERATOR_HEADER, generated.generator().header());
    CanvasViews.CanvasView shown = canvases.view(sequenceId, saved);
    return new GeneratedFlow(shown.nodes(), shown.edges(), shown.settings());
  }

  /** The generated flow as a canvas that is shown and not stored. */
  private static CanvasSnapshot unsaved(Canvas canvas, FlowSettings settings) {
    return new CanvasSnapshot(
        0,
        canvas.nodes().stream()
            .map(n -> new StoredNode(n.id(), n.type(), n.position(), n.data(), null, null))
            .toList(),
        canvas.edges().stream()
            .map(e -> new StoredEdge(e.id(), e.source(), e.target(), e.type(), e.label(), null))
            .toList(),
        settings,
        null);
  }

  private void spendBudget(UUID tenantId) {
    int perMinute = settings.requestsPerMinute();
    PerKeyLimiter.Decision decision = budgets.tryConsume(tenantId, perMinute);
    if (!decision.allowed()) {
      throw new ApiException(
          HttpStatus.TOO_MANY_REQUESTS,
          "Flow generation is limited to " + perMinute + " per minute per tenant.",
          List.of(),
          Map.of("Retry-After", Long.toString(decision.retryAfterSeconds())));
    }
  }

  /**
   * {@code {nodes, edges, settings}}: the flow generated and saved as the canvas's new version,
   * with the flow's settings (a re-enrollment rule the prompt names among them).
   */
  record GeneratedFlow(
      List<CanvasViews.NodeView> nodes, List<CanvasViews.EdgeView> edges, FlowSettings settings) {}
}
