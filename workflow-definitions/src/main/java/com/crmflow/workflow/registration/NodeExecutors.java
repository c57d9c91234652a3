package com.crmflow.workflow.registration;

import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The built-in node types, and the catalog of a process's types: the built-in ones and those it
 * adds ({@link #with}: api-server's and the worker's {@link NodeExecutor} beans). A host reaches
 * the built-in types through here, never through their package ({@link BuiltInNodes}'s).
 */
public final class NodeExecutors {

  private NodeExecutors() {}

  /** The built-in executors, in the palette's order. */
  public static List<NodeExecutor> builtIn() {
    return BuiltInNodes.all();
  }

  /** The catalog of the built-in types. */
  public static NodeCatalog catalog() {
    return BuiltInNodes.catalog();
  }

  /**
   * The catalog of the built-in types and {@code added} (a process's {@link NodeExecutor} beans):
   * what api-server checks and serves, and what a worker runs. The same rules hold in both, so that
   * a flow the API accepts runs on a worker with the same beans.
   *
   * @throws IllegalStateException an added type starts flows (a trigger needs its own way in: the
   *     service fires only the built-in ones), or is a second executor of a type
   */
  public static NodeCatalog with(Collection<? extends NodeExecutor> added) {
    List<NodeExecutor> all = new ArrayList<>(BuiltInNodes.all());
    for (NodeExecutor executor : added) {
      NodeDescriptor descriptor = executor.descriptor();
      if (descriptor.isTrigger()) {
        throw new IllegalStateException(
            "node type "
                + descriptor.name()
                + " starts flows: the service fires only its built-in triggers, each with its own"
                + " way in");
      }
      all.add(executor);
    }
    return NodeCatalog.of(all);
  }

  public static NodeExecutor of(NodeType type) {
    return BuiltInNodes.catalog().find(type.value()).orElse(null);
  }
}
