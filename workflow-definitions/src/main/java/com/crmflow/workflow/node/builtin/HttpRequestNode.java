package com.crmflow.workflow.node.builtin;

import com.crmflow.workflow.TaskQueues;
import com.crmflow.workflow.action.HttpRequestActivities;
import com.crmflow.workflow.action.HttpRequestCommand;
import com.crmflow.workflow.action.HttpResponseData;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.contract.RunInput;
import com.crmflow.workflow.history.HistoryPayloads;
import com.crmflow.workflow.history.WorkflowTaskBudget;
import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.DryRuns;
import com.crmflow.workflow.node.FieldKind;
import com.crmflow.workflow.node.NodeAccess;
import com.crmflow.workflow.node.NodeActivities;
import com.crmflow.workflow.node.NodeActivity;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeFailure;
import com.crmflow.workflow.node.NodeRun;
import com.crmflow.workflow.node.NodeSecrets;
import com.crmflow.workflow.template.TemplateReference;
import com.crmflow.workflow.template.TemplateResolver;
import com.crmflow.workflow.template.UrlTemplate;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * http_request: one call through the http_request activity, as a local activity in the worker's own
 * process on embedded defaults (when its task has room for the answer) or through the integrations
 * queue. A sealed credential header stays sealed: the activity unseals it.
 */
final class HttpRequestNode implements NodeExecutor {

  /** The call, from a worker of the integrations queue (or the run's own, locally). */
  static final NodeActivity<HttpRequestActivities> ACTIVITY =
      NodeActivity.on(TaskQueues.INTEGRATIONS, HttpRequestActivities.class).orLocal();

  @Override
  public List<NodeActivity<?>> activities() {
    return List.of(ACTIVITY);
  }

  static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");

  /**
   * A run with this change fills the url's values in for the part each lands in ({@link
   * UrlTemplate}: a path segment, a query value) and fails the node when they would move the call
   * to another origin or path; a run without it writes the values into the url as text. Asked only
   * where the two differ.
   */
  static final String URL_VALUES_ENCODED = "url-values-encoded";

  /** A local http_request's request larger than this is left out of its marker. */
  private static final long REQUEST_IN_MARKER_BYTES = 64 * 1024;

  @Override
  public NodeType type() {
    return NodeType.HTTP_REQUEST;
  }

  @Override
  public NodeDescriptor descriptor() {
    return new NodeDescriptor(
            NodeType.HTTP_REQUEST,
            "HTTP request",
            NodeDescriptor.ACTIONS,
            "globe",
            "calls a URL",
            List.of(
                ConfigField.select("method", "Method", METHODS)
                    .asRequired()
                    .destination(ConfigField.Destination.METHOD),
                ConfigField.template("url", "URL")
                    .asRequired()
                    .destination(ConfigField.Destination.ORIGIN),
                ConfigField.of("headers", "Headers", FieldKind.KEY_VALUE)
                    .check(ConfigCheck.HEADERS)
                    .secret(ConfigField.Secret.CREDENTIAL_ENTRIES)
                    .help("header name to value; credential headers are stored sealed"),
                ConfigField.template("bodyTemplate", "Body template")
                    .asMultiline()
                    .help("a JSON text with templates"),
                ConfigField.number("timeoutSeconds", "Timeout (seconds)", 1, 60)
                    .check(ConfigCheck.TIMEOUT_SECONDS)),
            NodeAccess.NONE,
            List.of())
        .withAdvice(NodeDescriptor.Advice.CALL)
        .withSummary(NodeDescriptor.Summary.of(" ", "method", "url"))
        .withMechanics("statusCode")
        .withOutput(
            "statusCode",
            "the answer’s HTTP status",
            "headers",
            "the answer’s headers",
            "body",
            "the answer’s body (parsed when it is JSON)");
  }

  /**
   * The url to call: its values encoded for their parts, or the node's failure when they would move
   * the call elsewhere; as text in a run that rendered it so before ({@link #URL_VALUES_ENCODED}).
   */
  private static String url(String template, NodeRun run) {
    String asText = TemplateResolver.render(template, run.scope());
    try {
      String encoded = UrlTemplate.render(template, run.scope());
      return encoded.equals(asText) || !run.since(URL_VALUES_ENCODED) ? asText : encoded;
    } catch (UrlTemplate.Refused refused) {
      if (!run.since(URL_VALUES_ENCODED)) {
        return asText;
      }
      throw new NodeFailure(refused.getMessage());
    }
  }

  /**
   * In a test run: the call it would make (method, url, headers with every credential and sealed
   * value masked, body), not made.
   */
  @Override
  public Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    HttpRequestCommand command = command(node, run);
    Map<String, String> headers = new LinkedHashMap<>();
    command
        .headers()
        .forEach(
            (name, value) ->
                headers.put(
                    name,
                    NodeSecrets.isSealed(value) || NodeSecrets.isCredentialHeader(name)
                        ? NodeSecrets.MASK
                        : value));
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("method", command.method());
    shown.put("url", command.url());
    shown.put("headers", headers);
    shown.put("body", command.body());
    return DryRuns.wouldDo(shown);
  }

  /** The call: its values filled in, a sealed header left sealed with its variables resolved. */
  private static HttpRequestCommand command(CanvasNode node, NodeRun run) {
    RunInput input = run.input();
    Map<String, Object> scope = run.scope();
    int timeout =
        node.config("timeoutSeconds") instanceof Number n
            ? Math.max(1, Math.min(60, n.intValue()))
            : 30;
    Map<String, String> headers = new LinkedHashMap<>();
    Map<String, String> sealedVariables = new LinkedHashMap<>();
    if (node.config("headers") instanceof Map<?, ?> configured) {
      configured.forEach(
          (k, v) -> {
            String value = String.valueOf(v);
            if (NodeSecrets.isSealed(value)) {
              // the secret stays sealed; only the values of its variables are resolved here
              headers.put(String.valueOf(k), value);
              TemplateReference.in(value)
                  .forEach(
                      reference ->
                          sealedVariables.put(
                              reference.token(),
                              TemplateResolver.render(reference.token(), scope)));
            } else {
              headers.put(String.valueOf(k), TemplateResolver.render(value, scope));
            }
          });
    }
    String body =
        node.config("bodyTemplate") == null
            ? null
            : TemplateResolver.render(String.valueOf(node.config("bodyTemplate")), scope, true);
    return new HttpRequestCommand(
        String.valueOf(node.config("method")),
        url(String.valueOf(node.config("url")), run),
        headers,
        body,
        timeout,
        input.runId() + ":" + node.id(),
        input.tenantId(),
        sealedVariables);
  }

  @Override
  public Map<String, Object> execute(CanvasNode node, NodeRun run) {
    RunInput input = run.input();
    HttpRequestCommand command = command(node, run);
    int timeout = command.timeoutSeconds();
    RetryOptions retry =
        RetryOptions.newBuilder()
            .setInitialInterval(Duration.ofSeconds(1))
            .setBackoffCoefficient(2)
            .setMaximumInterval(Duration.ofMinutes(1))
            .setMaximumAttempts(5)
            .setDoNotRetry(
                HttpRequestActivities.CLIENT_ERROR, HttpRequestActivities.FORBIDDEN_DESTINATION)
            .build();
    NodeActivities.Options options =
        new NodeActivities.Options(Duration.ofSeconds(timeout + 5L), retry);
    // the request shows in the Temporal UI unless it would crowd the task's answers out
    long requestBytes = input.runsLocalActivities() ? HistoryPayloads.bytes(command) : 0;
    boolean requestInMarker = requestBytes <= REQUEST_IN_MARKER_BYTES;
    long reserved = WorkflowTaskBudget.ANSWER_BYTES + (requestInMarker ? requestBytes : 0);
    HttpResponseData response;
    if (input.runsLocalActivities() && run.reserveAnswer(reserved)) {
      long carried = requestInMarker ? requestBytes : 0;
      try {
        response = NodeActivities.localStub(ACTIVITY, node, options, requestInMarker).send(command);
        carried += HistoryPayloads.bytes(response);
      } catch (ActivityFailure failure) {
        run.activitySpan(node, HttpRequestActivities.spanOf(failure));
        throw failure;
      } finally {
        run.answerLanded(reserved, carried);
      }
    } else {
      // distributed, or no room left in this task for a local call's answer (see the budget)
      run.requireFitsInHistory("request", command);
      HttpRequestActivities queued = NodeActivities.stub(ACTIVITY, node, options);
      try {
        response = queued.send(command);
      } catch (ActivityFailure failure) {
        run.activitySpan(node, HttpRequestActivities.spanOf(failure));
        throw failure;
      }
    }
    run.activitySpan(node, response.spanId());
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("statusCode", response.statusCode());
    output.put("headers", response.headers());
    output.put("body", response.body());
    return output;
  }

  /** Its body template writes each variable as a JSON value. */
  @Override
  public boolean rendersAsJson(String field) {
    return "bodyTemplate".equals(field);
  }
}
