package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.template.TemplateResolver;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the nodes of a test run share ({@code RunInput#testRun}, {@link NodeExecutor#wouldDo}):
 * which node types act outside the run, and the output of a node that shows what it would do.
 */
public final class DryRuns {

  /** The output key that marks a node's output as what it would have done, not done. */
  public static final String DRY_RUN = "dry_run";

  private DryRuns() {}

  /**
   * Whether nodes of the type act outside the run: they write records or post to chat (their
   * descriptor's access writes), send messages or make calls (its advice), or came with the
   * side-effect nodes. A test run shows what they would do instead of running them.
   */
  public static boolean actsOutside(NodeExecutor executor) {
    NodeDescriptor descriptor = executor.descriptor();
    return executor.sideEffect()
        || !descriptor.access().writes().isEmpty()
        || descriptor.advice().contains(NodeDescriptor.Advice.MESSAGE)
        || descriptor.advice().contains(NodeDescriptor.Advice.CALL);
  }

  /** An output that says what the node would do: {@code dry_run: true}, then {@code shown}. */
  public static Map<String, Object> wouldDo(Map<String, Object> shown) {
    Map<String, Object> output = new LinkedHashMap<>();
    output.put(DRY_RUN, true);
    output.putAll(shown);
    return output;
  }

  /**
   * A node type that does not say what it would do: its config with the variables filled in and
   * every secret masked, which is what it would act with.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> wouldDoConfigured(
      NodeExecutor executor, CanvasNode node, NodeRun run) {
    Map<String, Object> config =
        node.data() == null || node.data().config() == null ? Map.of() : node.data().config();
    Map<String, Object> masked = NodeSecrets.masked(executor.descriptor(), config);
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("node_type", node.type());
    shown.put("config", (Map<String, Object>) TemplateResolver.renderValue(masked, run.scope()));
    return wouldDo(shown);
  }

  /** The output of a wait a test run does not make: how long, or until when, it would wait. */
  public static Map<String, Object> wouldWait(String wait, Map<String, Object> more) {
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("would_wait", wait);
    shown.putAll(more);
    return wouldDo(shown);
  }
}
