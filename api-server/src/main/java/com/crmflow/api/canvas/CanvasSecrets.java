package com.crmflow.api.canvas;

import com.crmflow.api.web.FieldProblem;
import com.crmflow.worker.secret.SecretCipher;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.NodeSecrets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Seals the secrets of a canvas as it is stored, so that what GET shows (the mask) can be PUT back
 * unchanged: the mask keeps the secret stored at the same node and place, a new value is sealed,
 * and a sealed value a client did not get from us is refused.
 */
@Component
public class CanvasSecrets {

  private final SecretCipher cipher;

  CanvasSecrets(SecretCipher cipher) {
    this.cipher = cipher;
  }

  /** The nodes to store, their secrets sealed; what cannot be stored goes into problems. */
  List<StoredNode> sealed(
      UUID tenantId, CanvasSnapshot current, List<StoredNode> nodes, List<FieldProblem> problems) {
    Map<String, StoredNode> before = new HashMap<>();
    current.nodes().forEach(node -> before.put(node.id(), node));
    List<StoredNode> sealed = new ArrayList<>(nodes.size());
    for (StoredNode node : nodes) {
      if (node.data() == null || node.data().config() == null) {
        sealed.add(node);
        continue;
      }
      StoredNode previous = before.get(node.id());
      Map<String, Object> previousConfig =
          previous != null && previous.data() != null && previous.type().equals(node.type())
              ? previous.data().config()
              : null;
      Map<String, Object> config =
          NodeSecrets.rewrite(
              node.type(),
              node.data().config(),
              (path, value) ->
                  sealedValue(tenantId, node.id(), path, value, previousConfig, problems));
      sealed.add(
          config == node.data().config()
              ? node
              : new StoredNode(
                  node.id(),
                  node.type(),
                  node.position(),
                  new NodeData(node.data().label(), config),
                  node.createdAt(),
                  node.updatedAt()));
    }
    return sealed;
  }

  private Object sealedValue(
      UUID tenantId,
      String nodeId,
      String path,
      String value,
      Map<String, Object> previousConfig,
      List<FieldProblem> problems) {
    Object stored = NodeSecrets.valueAt(previousConfig, path);
    String field = "nodes." + nodeId + ".data.config." + path;
    if (NodeSecrets.MASK.equals(value)) {
      if (NodeSecrets.isSealed(stored)) {
        return stored;
      }
      problems.add(
          new FieldProblem(
              field,
              "is the mask of a secret, but this node has no stored secret here: send the"
                  + " secret itself"));
      return value;
    }
    if (NodeSecrets.isSealed(value)) {
      if (Objects.equals(value, stored)) {
        return value;
      }
      problems.add(
          new FieldProblem(
              field, "must not start with " + NodeSecrets.SEALED_PREFIX + " (stored secrets do)"));
      return value;
    }
    return cipher.seal(tenantId, value);
  }

  /** The plain text of a stored secret. */
  public String plain(UUID tenantId, String stored) {
    return NodeSecrets.isSealed(stored) ? cipher.unseal(tenantId, stored) : stored;
  }
}
