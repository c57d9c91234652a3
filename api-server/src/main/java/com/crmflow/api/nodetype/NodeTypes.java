package com.crmflow.api.nodetype;

import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeExecutors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The node types of this service: the built-in ones and every {@link NodeExecutor} bean, so that a
 * node type is one class (its executor with its descriptor). The canvas rules, the secrets, the
 * scope check, the linear builder, the OpenAPI document, the flow generator and {@code GET
 * /api/v1/node-types} read them from here.
 */
@Component
public class NodeTypes implements NodeCatalog {

  private final NodeCatalog catalog;

  NodeTypes(List<NodeExecutor> beans) {
    List<NodeExecutor> all = new ArrayList<>(NodeExecutors.builtIn());
    all.addAll(beans);
    this.catalog = NodeCatalog.of(all);
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
