package com.crmflow.api.flow;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeExecutor;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A canvas problem in the words of the person who drew the canvas: nodes by their labels instead of
 * their ids, fields by a label instead of their JSON path ({@code data.config.entityType} is
 * "Entity type").
 */
final class CanvasWords {

  /** Characters of a node id; an id is replaced only where it stands as a whole word. */
  private static final String ID_CHAR = "[A-Za-z0-9_.:-]";

  /** Messages that read on from a field's name: "is required", "must be a number". */
  private static final Pattern PREDICATE =
      Pattern.compile("(is|are|must|needs|has|have|does|cannot|may) ");

  private static final Map<String, String> WORDS =
      Map.of("url", "URL", "id", "ID", "json", "JSON", "http", "HTTP", "crm", "CRM");

  private final Canvas canvas;
  private final NodeCatalog catalog;
  private final Map<String, String> labels = new LinkedHashMap<>();
  private final Map<String, String> types = new LinkedHashMap<>();
  private final Pattern ids;

  /**
   * @param catalog the node types the service knows (the API's {@code NodeTypes}: the built-in ones
   *     and the process's beans), whose config keys a message may name
   */
  CanvasWords(Canvas canvas, NodeCatalog catalog) {
    this.canvas = canvas;
    this.catalog = catalog;
    for (CanvasNode node : canvas.nodes()) {
      if (node.id() != null) {
        labels.put(node.id(), labelOf(node));
        types.put(node.id(), node.type());
      }
    }
    ids =
        labels.isEmpty()
            ? null
            : Pattern.compile(
                "(?<!"
                    + ID_CHAR
                    + ")("
                    + String.join(
                        "|",
                        labels.keySet().stream()
                            .sorted(Comparator.comparingInt(String::length).reversed())
                            .map(Pattern::quote)
                            .toList())
                    + ")(?!"
                    + ID_CHAR
                    + ")");
  }

  /**
   * One problem with the node's label, the field's label and a sentence naming both.
   *
   * @param nodeLabel the label of the node it concerns (its type when the label is blank), or null
   * @param fieldLabel the field's label ("Subject", "Entity type"), or null
   * @param text the whole sentence: {@code “Welcome mail” · Subject is required}
   */
  record Worded(
      String nodeId,
      String edgeId,
      String field,
      String message,
      String nodeLabel,
      String fieldLabel,
      String text) {}

  Worded word(CanvasProblem problem) {
    String nodeLabel = problem.nodeId() == null ? null : labels.get(problem.nodeId());
    if (problem.nodeId() != null && nodeLabel == null) {
      nodeLabel = problem.nodeId();
    }
    String fieldLabel = fieldLabel(problem.field());
    String message = withFieldLabels(problem.nodeId(), withLabels(problem.message()));
    String what;
    if (fieldLabel == null) {
      what = message;
    } else if (message != null && PREDICATE.matcher(message).lookingAt()) {
      what = fieldLabel + " " + message; // "Subject is required"
    } else {
      what = fieldLabel + ": " + message;
    }
    String text;
    if (problem.nodeId() != null) {
      text = quoted(nodeLabel) + (fieldLabel == null ? " " : " · ") + what;
    } else if (problem.edgeId() != null) {
      text = edgeName(problem.edgeId()) + " · " + what;
    } else {
      text = capitalized(what);
    }
    return new Worded(
        problem.nodeId(),
        problem.edgeId(),
        problem.field(),
        problem.message(),
        nodeLabel,
        fieldLabel,
        text);
  }

  List<Worded> word(List<CanvasProblem> problems) {
    return problems.stream().map(this::word).toList();
  }

  private String edgeName(String edgeId) {
    return canvas.edges().stream()
        .filter(e -> edgeId != null && edgeId.equals(e.id()))
        .findFirst()
        .map(this::edgeName)
        .orElse("The connection");
  }

  private String edgeName(CanvasEdge edge) {
    return "The connection from "
        + quoted(labels.getOrDefault(edge.source(), String.valueOf(edge.source())))
        + " to "
        + quoted(labels.getOrDefault(edge.target(), String.valueOf(edge.target())));
  }

  private String withLabels(String message) {
    if (ids == null || message == null) {
      return message;
    }
    Matcher m = ids.matcher(message);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(quoted(labels.get(m.group(1)))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * The node type's config keys named in a message, by their labels ("templateId" → "Template ID").
   */
  private String withFieldLabels(String nodeId, String message) {
    if (nodeId == null || message == null) {
      return message;
    }
    String type = types.get(nodeId);
    NodeExecutor executor = type == null ? null : catalog.find(type).orElse(null);
    if (executor == null) {
      return message;
    }
    String out = message;
    for (String key : executor.configFields().keySet()) {
      if (key.chars().anyMatch(Character::isUpperCase)) {
        out =
            out.replaceAll(
                "(?<![A-Za-z0-9_.{])" + Pattern.quote(key) + "(?![A-Za-z0-9_])",
                Matcher.quoteReplacement(fieldLabel(key)));
      }
    }
    return out;
  }

  /** {@code data.config.entityType} → "Entity type"; {@code data.label} → "Label". */
  static String fieldLabel(String field) {
    if (field == null || field.isBlank()) {
      return null;
    }
    String last = field.substring(field.lastIndexOf('.') + 1);
    if (field.equals("data.config")) {
      return "Settings";
    }
    String[] words = last.replaceAll("([a-z0-9])([A-Z])", "$1 $2").split("[ _]+");
    StringBuilder out = new StringBuilder();
    for (String word : words) {
      String lower = word.toLowerCase(java.util.Locale.ROOT);
      out.append(out.isEmpty() ? "" : " ").append(WORDS.getOrDefault(lower, lower));
    }
    return capitalized(out.toString());
  }

  /** The label a person gave the node, or its type in words when it has none. */
  private static String labelOf(CanvasNode node) {
    String label = node.data() == null ? null : node.data().label();
    if (label != null && !label.isBlank()) {
      return label.strip();
    }
    return node.type() == null ? node.id() : fieldLabel(node.type());
  }

  private static String quoted(String text) {
    return "“" + text + "”";
  }

  private static String capitalized(String text) {
    return text == null || text.isEmpty()
        ? text
        : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }
}
