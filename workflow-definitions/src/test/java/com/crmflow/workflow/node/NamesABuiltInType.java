package com.crmflow.workflow.node;

import com.crmflow.workflow.node.builtin.BuiltInNodes;

/**
 * What {@code EngineLayersTest} forbids: a class of a node type's public interface that names the
 * built-in types (which themselves use that interface: a cycle, and a lower layer reaching a higher
 * one).
 */
public class NamesABuiltInType {

  public NodeCatalog builtIn = BuiltInNodes.catalog();
}
