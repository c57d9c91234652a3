package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One node type: its {@link NodeDescriptor} (config fields with their limits and secrets, what it
 * reads and writes, palette entry, outputs) and what the node does in a run. Each type is one
 * class, found through a {@link NodeCatalog}; the interpreter only walks the graph (order, joins,
 * failure, cancel) and asks the node's executor for the rest.
 *
 * <p>{@link #execute} runs in workflow code: it must be deterministic, and reach the world only
 * through activities and timers.
 */
public interface NodeExecutor {

  /** All that is known of the type outside a run. */
  NodeDescriptor descriptor();

  default NodeType type() {
    return descriptor().type();
  }

  /**
   * What a node of the type reads and writes: its descriptor's {@link NodeDescriptor#access},
   * unless the node's config reads more (a delay whose send window is the contact's zone reads the
   * contact).
   */
  default NodeAccess accessOf(CanvasNode node) {
    return descriptor().access();
  }

  /** The config keys this type reads, each with what it must hold when present. */
  default Map<String, ConfigCheck> configFields() {
    Map<String, ConfigCheck> checks = new LinkedHashMap<>();
    descriptor().fields().forEach(field -> checks.put(field.key(), field.check()));
    return checks;
  }

  /**
   * What the node's config still lacks before its flow can run (checked on activation and by the
   * validate endpoint), beside its {@link ConfigField#required() required} fields and the checks of
   * {@link #configFields}.
   */
  default void checkComplete(CanvasNode node, Canvas canvas, List<CanvasProblem> problems) {}

  /**
   * Runs the node and returns its output, the {@code <type>_<n>} variable of the nodes after it.
   *
   * @throws NodeFailure the node cannot complete (the run fails unless it continues on failure)
   * @throws NodeSkipped the node decided not to act
   */
  Map<String, Object> execute(CanvasNode node, NodeRun run);

  /**
   * Runs the node in a test run ({@code RunInput#testRun}): what it would do, not done. A node that
   * acts outside the run ({@link DryRuns#actsOutside}: it sends, calls, posts or writes) outputs
   * what it would do, marked {@code dry_run: true}; every other node runs as in any run. Node types
   * that act outside override it to show the act itself (the rendered email, the call, the write);
   * this default shows at least the node's config with its variables filled in.
   */
  default Map<String, Object> wouldDo(CanvasNode node, NodeRun run) {
    return DryRuns.actsOutside(this)
        ? DryRuns.wouldDoConfigured(this, node, run)
        : execute(node, run);
  }

  /**
   * The activities the type calls, each with its task queue and whether a run may call it locally:
   * every process registers its beans that implement them on its workers of those queues, and does
   * not start when it polls a queue and has no bean for an activity declared on it. A type calls
   * them through {@link NodeActivities}. None by default: the type runs in workflow code only.
   */
  default List<NodeActivity<?>> activities() {
    return List.of();
  }

  /** Whether the node waits on something outside the workflow: a timer or an activity. */
  default boolean waits() {
    return true;
  }

  /** The output logged while the node runs (a delay's wake-up time), or null: nothing logged. */
  default Map<String, Object> runningOutput(CanvasNode node, NodeRun run) {
    return null;
  }

  /** Which of its outgoing edges a completed node takes: all of them, unless it branches. */
  default Predicate<CanvasEdge> edgesTaken(Map<String, Object> output) {
    return edge -> true;
  }

  /**
   * Paths into the run's variables that the node looks up beside its config's templates (a
   * data_transform's mappings): they count as read, and the node's input shows their values.
   */
  default List<String> pathsLookedUp(CanvasNode node) {
    return List.of();
  }

  /**
   * Variables the node reads without naming them in its config (an email's stored template may read
   * the trigger's payload).
   */
  default Set<String> variablesReadUnnamed(CanvasNode node) {
    return Set.of();
  }

  /**
   * Whether the node reads the run's contact afresh when it runs (an email checks the address and
   * do_not_email as they are then): its input shows the contact as it read it, while every other
   * node's shows the contact the node started with.
   */
  default boolean readsContactAfresh() {
    return false;
  }

  /**
   * Whether a config field's template renders as JSON text, each variable written as a JSON value
   * (an http_request's body), rather than as plain text.
   */
  default boolean rendersAsJson(String field) {
    return false;
  }

  /**
   * Whether the node came with the side-effect nodes (email, chat_message, crm_update,
   * create_record): runs started before those cannot run it.
   */
  default boolean sideEffect() {
    return false;
  }
}
