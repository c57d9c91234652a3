package com.crmflow.api.nodetype;

import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import com.crmflow.workflow.node.NodeExecutors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The node types of this service's API: the built-in ones and every {@link NodeExecutor} bean, so
 * that a node type is one class (its executor with its descriptor). The canvas rules, the scope
 * checks (saving, activating, enrolling, retrying), the linear builder, the OpenAPI document and
 * {@code GET /api/v1/node-types} read them from here. The worker runs the built-in types ({@link
 * NodeExecutors}), and the secrets' sealing and masking know those: a type with secret fields is
 * built in, and a bean that declares one is refused at start.
 */
@Component
public class NodeTypes implements NodeCatalog {

  private final NodeCatalog catalog;

  NodeTypes(List<NodeExecutor> beans) {
    List<NodeExecutor> all = new ArrayList<>(NodeExecutors.builtIn());
    for (NodeExecutor bean : beans) {
      if (bean.descriptor().fields().stream()
          .anyMatch(field -> field.secret() != ConfigField.Secret.NONE)) {
        throw new IllegalStateException(
            "node type "
                + bean.type().value()
                + " declares secret fields: such a type is built in (NodeExecutors), whose"
                + " catalog seals and masks secrets");
      }
      all.add(bean);
    }
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
