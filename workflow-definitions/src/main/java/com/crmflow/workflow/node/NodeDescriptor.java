package com.crmflow.workflow.node;

import com.crmflow.workflow.canvas.NodeType;
import java.util.List;

/**
 * All that is known of a node type outside its run: its name, its palette entry, its config fields
 * with their limits and secrets, what it reads and writes, and its outputs. The canvas rules, the
 * secrets, the scope check, the linear builder, the API's {@code GET /api/v1/node-types}, the
 * OpenAPI document, the flow generator's contract and the console read it from here.
 *
 * @param type the type's name and whether it starts a flow
 * @param label the palette's name of the type
 * @param group the palette group: {@value #TRIGGERS}, {@value #ACTIONS}, {@value #LOGIC} or {@value
 *     #DATA}
 * @param icon the console's icon name
 * @param description one sentence of what the node does
 * @param fields the config fields, in the form's order
 * @param access what the node reads and writes
 * @param outputs the labels of its outgoing edges when it branches (a condition's {@code true} and
 *     {@code false}); empty: one unlabelled output
 */
public record NodeDescriptor(
    NodeType type,
    String label,
    String group,
    String icon,
    String description,
    List<ConfigField> fields,
    NodeAccess access,
    List<String> outputs) {

  public static final String TRIGGERS = "triggers";
  public static final String ACTIONS = "actions";
  public static final String LOGIC = "logic";
  public static final String DATA = "data";

  public NodeDescriptor {
    fields = List.copyOf(fields);
    access = access == null ? NodeAccess.NONE : access;
    outputs = outputs == null ? List.of() : List.copyOf(outputs);
  }

  public String name() {
    return type.value();
  }

  public boolean isTrigger() {
    return type.isTrigger();
  }

  /** Whether its outgoing edges are labelled with its outputs. */
  public boolean branches() {
    return !outputs.isEmpty();
  }

  /** Whether the linear builder offers it as a step: no trigger, no branches. */
  public boolean isStep() {
    return !isTrigger() && !branches();
  }

  public ConfigField field(String key) {
    return fields.stream().filter(f -> f.key().equals(key)).findFirst().orElse(null);
  }
}
