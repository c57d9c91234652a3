package com.crmflow.api.flow;

import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import com.crmflow.shared.secret.SecretCipher;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.node.NodeSecrets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Seals the secrets of a canvas as it is stored, so that what GET shows (the mask) can be PUT back
 * unchanged: the mask keeps the secret stored at the same node and place, a new value is sealed,
 * and a sealed value a client did not get from us is refused. A secret is kept only while its node
 * sends it where it did ({@link NodeSecrets#destination}): a change of an http_request's method or
 * url origin asks for the secret again, so that no edit sends a stored secret to another host.
 */
@Component
public class CanvasSecrets {

  /** What a kept secret is told when the change sends its node's request elsewhere. */
  static final String MOVED =
      "is a stored secret, and this change sends the request to another method, scheme, host or"
          + " port: send the secret itself again (a stored secret goes only to the method and"
          + " origin it was entered for)";

  private static final Logger log = LoggerFactory.getLogger(CanvasSecrets.class);

  private final SecretCipher cipher;
  private final NodeTypes nodeTypes;

  CanvasSecrets(SecretCipher cipher, NodeTypes nodeTypes) {
    this.cipher = cipher;
    this.nodeTypes = nodeTypes;
  }

  /**
   * The nodes to store, their secrets sealed; what cannot be stored goes into problems.
   *
   * @param current the version whose stored secrets the mask (or their sealed text) keeps: the
   *     latest one, or the version a restore copies
   */
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
      String sentTo = NodeSecrets.destination(nodeTypes, node.type(), previousConfig);
      String sendsTo = NodeSecrets.destination(nodeTypes, node.type(), node.data().config());
      boolean moved = sentTo != null && !sentTo.equals(sendsTo);
      Map<String, Object> config =
          NodeSecrets.rewrite(
              nodeTypes,
              node.type(),
              node.data().config(),
              (path, value) ->
                  sealedValue(tenantId, node.id(), path, value, previousConfig, moved, problems));
      if (config != node.data().config() && sendsTo != null && sendsTo.contains("{{")) {
        problems.add(
            new FieldProblem(
                "nodes." + node.id() + ".data.config.url",
                "holds a template before its path, and this node has a secret: a secret goes only"
                    + " to a fixed scheme, host and port"));
      }
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
      boolean moved,
      List<FieldProblem> problems) {
    Object stored = NodeSecrets.valueAt(previousConfig, path);
    String field = "nodes." + nodeId + ".data.config." + path;
    boolean keeps =
        NodeSecrets.MASK.equals(value)
            || (NodeSecrets.isSealed(value) && Objects.equals(value, stored));
    if (keeps && moved && NodeSecrets.isSealed(stored)) {
      problems.add(new FieldProblem(field, MOVED));
      return value;
    }
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

  /**
   * The plain text of a trigger's stored secretToken, for comparing with a caller's.
   *
   * @throws ApiException 503 when it cannot be unsealed (another key, damaged): logged for
   *     operators, who must give this process the key or have the tenant enter the secret again
   */
  public String triggerSecret(UUID tenantId, UUID sequenceId, String nodeId, String stored) {
    try {
      return plain(tenantId, stored);
    } catch (IllegalStateException unreadable) {
      log.error(
          "The secretToken of trigger {} (tenant {}, automation {}) cannot be unsealed: {}. Give"
              + " this process the key it was sealed with (crm.secrets.previous-keys), or have the"
              + " tenant enter the secret again.",
          nodeId,
          tenantId,
          sequenceId,
          unreadable.getMessage());
      throw new ApiException(
          HttpStatus.SERVICE_UNAVAILABLE,
          "This automation's secret cannot be read; an operator must restore the secrets key or"
              + " re-enter the secret.",
          List.of(),
          Map.of());
    }
  }

  /** The plain text of a stored secret. */
  public String plain(UUID tenantId, String stored) {
    return NodeSecrets.isSealed(stored) ? cipher.unseal(tenantId, stored) : stored;
  }
}
