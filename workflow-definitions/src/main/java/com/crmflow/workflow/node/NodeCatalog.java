package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.NodeType;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node types a part of the service knows, by name: the built-in ones ({@code
 * node.builtin.BuiltInNodes}) and, in api-server and the worker, every {@link NodeExecutor} bean
 * ({@code registration.NodeExecutors#with}), so that a node type is one class and nothing else to
 * edit.
 */
public interface NodeCatalog {

  /** Every type, triggers first, in the palette's order. */
  List<NodeExecutor> all();

  Optional<NodeExecutor> find(String type);

  default Optional<NodeDescriptor> descriptor(String type) {
    return find(type).map(NodeExecutor::descriptor);
  }

  /**
   * Whether nodes of the type start a flow, as its descriptor says: the one answer to it (the
   * canvas model knows no types). False for a type the catalog does not know.
   */
  default boolean isTrigger(String type) {
    return descriptor(type).map(NodeDescriptor::isTrigger).orElse(false);
  }

  /** The names of the types that start a flow. */
  default List<String> triggerNames() {
    return descriptors().stream().filter(NodeDescriptor::isTrigger).map(d -> d.name()).toList();
  }

  /** The canvas's nodes that start it, in the canvas's order. */
  default List<CanvasNode> triggers(Canvas canvas) {
    return canvas.nodes().stream().filter(n -> isTrigger(n.type())).toList();
  }

  /** The canvas's nodes that are steps (every node but its triggers): a sequence's step_count. */
  default long stepCount(Canvas canvas) {
    return canvas.nodes().stream().filter(n -> !isTrigger(n.type())).count();
  }

  default List<String> names() {
    return all().stream().map(executor -> executor.type().value()).toList();
  }

  default List<NodeDescriptor> descriptors() {
    return all().stream().map(NodeExecutor::descriptor).toList();
  }

  /**
   * A catalog of these executors (triggers first, else in the given order).
   *
   * @throws IllegalStateException two executors of one type
   */
  static NodeCatalog of(Collection<? extends NodeExecutor> executors) {
    Map<String, NodeExecutor> byName = new LinkedHashMap<>();
    executors.stream()
        .sorted((a, b) -> Boolean.compare(!a.type().isTrigger(), !b.type().isTrigger()))
        .forEach(
            executor -> {
              NodeType type = executor.type();
              if (!type.equals(executor.descriptor().type())) {
                throw new IllegalStateException(
                    executor.getClass().getName() + " describes another type than its own");
              }
              if (byName.putIfAbsent(type.value(), executor) != null) {
                throw new IllegalStateException("two executors of node type " + type.value());
              }
            });
    List<NodeExecutor> all = List.copyOf(byName.values());
    return new NodeCatalog() {
      @Override
      public List<NodeExecutor> all() {
        return all;
      }

      @Override
      public Optional<NodeExecutor> find(String type) {
        return Optional.ofNullable(type == null ? null : byName.get(type));
      }
    };
  }
}
