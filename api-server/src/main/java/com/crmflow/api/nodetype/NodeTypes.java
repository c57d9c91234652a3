package com.crmflow.api.nodetype;

import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.registration.NodeExecutors;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The node types of this service's API: the built-in ones and every {@link NodeExecutor} bean, so
 * that a node type is one class (its executor with its descriptor). The canvas rules, the scope
 * checks (saving, activating, enrolling, retrying), the run's visibility and input, the linear
 * builder, the flow generator, the OpenAPI document and {@code GET /api/v1/node-types} read them
 * from here, and so do the sealing and masking of secrets (a bean type's secret fields too). A
 * worker runs the same catalog of its own beans ({@link NodeExecutors#with}, whose rules refuse a
 * bean that is a trigger or repeats a type).
 */
@Component
public class NodeTypes implements NodeCatalog {

  private final NodeCatalog catalog;

  NodeTypes(List<NodeExecutor> beans) {
    this.catalog = NodeExecutors.with(beans);
  }

  @Override
  public List<NodeExecutor> all() {
    return catalog.all();
  }

  @Override
  public Optional<NodeExecutor> find(String type) {
    return catalog.find(type);
  }

  /** The types the linear builder offers as steps: neither triggers nor branching. */
  public List<String> stepTypes() {
    return descriptors().stream().filter(d -> d.isStep()).map(d -> d.name()).toList();
  }
}
