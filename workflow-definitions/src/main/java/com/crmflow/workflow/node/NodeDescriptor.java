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
 *     {@code false}), or one {@code {field}}: the labels that config field of each node names (a
 *     split's {@code {branches}}); empty: one unlabelled output
 * @param advice what the optimizer advises on a node of the type, beside what it says of any node
 * @param summary the line a node's card on the canvas shows, or null: its first text values
 * @param mechanics the keys of its output whose values the node makes itself (a status code, the
 *     branch taken, a wake-up time, the id of what it wrote), never a value it read or a peer
 *     answered: all that a reader of runs without the scopes of the records the node holds sees of
 *     its output (api-server's {@code RunVisibility})
 * @param outputFields what a node's output holds, for the variables of the nodes after it ({@code
 *     {{<type>_<n>.<key>}}}); empty: not described
 */
public record NodeDescriptor(
    NodeType type,
    String label,
    String group,
    String icon,
    String description,
    List<ConfigField> fields,
    NodeAccess access,
    List<String> outputs,
    List<Advice> advice,
    Summary summary,
    List<String> mechanics,
    List<OutputField> outputFields) {

  public static final String TRIGGERS = "triggers";
  public static final String ACTIONS = "actions";
  public static final String LOGIC = "logic";
  public static final String DATA = "data";

  /**
   * The optimizer's advice on the nodes of a type (api-server's {@code CanvasOptimizer}), read from
   * the type's fields.
   */
  public enum Advice {
    /**
     * A message to the contact: two back to back want a delay between them, and a node with none of
     * its {@link ConfigField#content() content} fields set has nothing to say.
     */
    MESSAGE,
    /**
     * A wait, as long as the sum of its {@link ConfigField#unit() duration} fields: under an hour
     * or over 30 days is advised against, two in a row are one longer wait, and a sequence should
     * not open with one.
     */
    WAIT,
    /**
     * A call that can fail: without continueOnFailure, a branching node after it should check its
     * answer.
     */
    CALL
  }

  /**
   * A node's card line: {@code lead} (when any field is set), then the set ones of these fields,
   * joined by {@code separator}. The console shows each value by its field's kind: a duration with
   * its unit, a key-value or JSON field by its keys, a secret as "with a secret".
   *
   * @param lead the words before the values ("Wait"), or null
   * @param keys the fields shown, in this order
   * @param separator what goes between two values
   */
  public record Summary(String lead, List<String> keys, String separator) {
    public Summary {
      keys = List.copyOf(keys);
    }

    public static Summary of(String separator, String... keys) {
      return new Summary(null, List.of(keys), separator);
    }

    public Summary lead(String words) {
      return new Summary(words, keys, separator);
    }
  }

  /**
   * One field of what a node's output holds.
   *
   * @param key its path in the output ({@code statusCode}, {@code record.email}); {@code {field}}
   *     stands for each key of that config field's object (a map's {@code mappings})
   * @param description what it holds
   */
  public record OutputField(String key, String description) {}

  public NodeDescriptor {
    fields = List.copyOf(fields);
    access = access == null ? NodeAccess.NONE : access;
    outputs = outputs == null ? List.of() : List.copyOf(outputs);
    advice = advice == null ? List.of() : List.copyOf(advice);
    mechanics = mechanics == null ? List.of() : List.copyOf(mechanics);
    outputFields = outputFields == null ? List.of() : List.copyOf(outputFields);
  }

  /** A type as described, without the parts added by the {@code with…} methods. */
  public NodeDescriptor(
      NodeType type,
      String label,
      String group,
      String icon,
      String description,
      List<ConfigField> fields,
      NodeAccess access,
      List<String> outputs,
      List<Advice> advice,
      Summary summary) {
    this(
        type,
        label,
        group,
        icon,
        description,
        fields,
        access,
        outputs,
        advice,
        summary,
        List.of(),
        List.of());
  }

  /** A type without advice of its own, whose cards show their first text values. */
  public NodeDescriptor(
      NodeType type,
      String label,
      String group,
      String icon,
      String description,
      List<ConfigField> fields,
      NodeAccess access,
      List<String> outputs) {
    this(type, label, group, icon, description, fields, access, outputs, List.of(), null);
  }

  /** The same type with this advice. */
  public NodeDescriptor withAdvice(Advice... given) {
    return with(List.of(given), summary, mechanics, outputFields);
  }

  /** The same type with this card line. */
  public NodeDescriptor withSummary(Summary line) {
    return with(advice, line, mechanics, outputFields);
  }

  /** The same type, whose output has these keys of its own making ({@link #mechanics}). */
  public NodeDescriptor withMechanics(String... keys) {
    return with(advice, summary, List.of(keys), outputFields);
  }

  /**
   * The same type with what its output holds, as pairs of key and description: {@code
   * withOutput("statusCode", "the answer's status", "body", "the answer's body")}.
   */
  public NodeDescriptor withOutput(String... keysAndDescriptions) {
    if (keysAndDescriptions.length % 2 != 0) {
      throw new IllegalArgumentException("keys and descriptions come in pairs");
    }
    List<OutputField> described = new java.util.ArrayList<>();
    for (int i = 0; i + 1 < keysAndDescriptions.length; i += 2) {
      described.add(new OutputField(keysAndDescriptions[i], keysAndDescriptions[i + 1]));
    }
    return with(advice, summary, mechanics, described);
  }

  /** The same type with these parts that the {@code with…} methods add. */
  private NodeDescriptor with(
      List<Advice> advice,
      Summary summary,
      List<String> mechanics,
      List<OutputField> outputFields) {
    return new NodeDescriptor(
        type,
        label,
        group,
        icon,
        description,
        fields,
        access,
        outputs,
        advice,
        summary,
        mechanics,
        outputFields);
  }

  public boolean advises(Advice which) {
    return advice.contains(which);
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

  /**
   * The config field whose entries' labels are a node's outputs ({@code branches} of {@code
   * {branches}}), or null when the outputs are the type's own.
   */
  public String outputsField() {
    return outputs.size() == 1 ? NodeAccess.fieldOf(outputs.get(0)) : null;
  }

  public ConfigField field(String key) {
    return fields.stream().filter(f -> f.key().equals(key)).findFirst().orElse(null);
  }
}
