package com.crmflow.api.generate;

import com.crmflow.workflow.node.ConfigCheck;
import com.crmflow.workflow.node.ConfigField;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.NodeDescriptor;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a language model is told about flows: the node types of a catalog (the API's {@code
 * NodeTypes}) with their config fields, the edge rules and the template variables
 * (resources/generate/canvas-contract.md), and the one tool it must answer with, {@code save_flow
 * {nodes: [{id, type, label, config}], edges: [{source, target, label}]}}. Tool use is the
 * structured output both providers enforce.
 */
final class CanvasContract {

  static final String TOOL = "save_flow";

  private final NodeCatalog catalog;
  private final List<String> nodeTypeNames;
  private final String text;
  private final ToolSpecification toolSpec;

  CanvasContract(NodeCatalog catalog) {
    this.catalog = catalog;
    this.nodeTypeNames = catalog.names();
    this.text = load();
    this.toolSpec = tool();
  }

  /** The names a node of a draft may have as its type. */
  List<String> nodeTypeNames() {
    return nodeTypeNames;
  }

  /** The save_flow tool, the same for every request. */
  ToolSpecification toolSpec() {
    return toolSpec;
  }

  /**
   * The system prompt: the contract, whether the flow is an automation or a sequence, and the
   * tenant's custom field keys (the only data of the tenant that leaves the service).
   */
  String systemPrompt(boolean automation, List<String> customFieldKeys) {
    StringBuilder prompt = new StringBuilder(text);
    prompt
        .append("\nThis flow is ")
        .append(
            automation
                ? "an automation: it starts with exactly one trigger node."
                : "a sequence: it has no trigger node; its first node is its first step.")
        .append('\n');
    if (!customFieldKeys.isEmpty()) {
      prompt
          .append("The tenant's custom fields (as {{contact.custom_fields.<key>}} and in")
          .append(" fieldMappings as custom_fields.<key>): ")
          .append(String.join(", ", customFieldKeys))
          .append('\n');
    }
    return prompt.toString();
  }

  private ToolSpecification tool() {
    JsonObjectSchema node =
        JsonObjectSchema.builder()
            .addStringProperty("id", "short and unique in the flow")
            .addEnumProperty("type", nodeTypeNames)
            .addStringProperty("label", "a few words")
            .addProperty(
                "config",
                JsonObjectSchema.builder()
                    .description("the node type's config fields")
                    .additionalProperties(true)
                    .build())
            .required("id", "type", "label", "config")
            .build();
    JsonObjectSchema edge =
        JsonObjectSchema.builder()
            .addStringProperty("source", "the id of the node the edge leaves")
            .addStringProperty("target", "the id of the node the edge enters")
            .addProperty(
                "label",
                JsonStringSchema.builder()
                    .description("\"true\" or \"false\" on a condition's edges; empty otherwise")
                    .build())
            .required("source", "target")
            .build();
    return ToolSpecification.builder()
        .name(TOOL)
        .description("Saves the flow designed from the user's description.")
        .parameters(
            JsonObjectSchema.builder()
                .addProperty("nodes", JsonArraySchema.builder().items(node).build())
                .addProperty("edges", JsonArraySchema.builder().items(edge).build())
                .required("nodes", "edges")
                .build())
        .build();
  }

  /**
   * One line per node type from its descriptor: {@code - type: description. field* (help; one of:
   * ...; min-max), ...}. Fields the service sets and secrets are left out: a model writes neither.
   */
  String nodeTypes() {
    StringBuilder out = new StringBuilder();
    for (NodeDescriptor type : catalog.descriptors()) {
      List<String> fields = new ArrayList<>();
      for (ConfigField field : type.fields()) {
        if (field.readOnly() || field.secret() == ConfigField.Secret.VALUE) {
          continue;
        }
        List<String> notes = new ArrayList<>();
        if (field.help() != null) {
          notes.add(field.help());
        }
        if (!field.options().isEmpty()) {
          notes.add("one of: " + String.join(", ", field.options()));
        }
        if (field.min() != null && field.max() != null) {
          notes.add(ConfigCheck.plain(field.min()) + "-" + ConfigCheck.plain(field.max()));
        }
        if (field.template()) {
          notes.add("templates allowed");
        }
        fields.add(
            field.key()
                + (field.required() ? "*" : "")
                + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
      }
      out.append("- ")
          .append(type.name())
          .append(": ")
          .append(type.description())
          .append(". config ")
          .append(fields.isEmpty() ? "{}" : String.join(", ", fields))
          .append('.');
      if (type.outputsField() != null) {
        out.append(" It has one outgoing edge per entry of ")
            .append(type.outputsField())
            .append(", labelled with the entry's label.");
      } else if (type.branches()) {
        out.append(" Its outgoing edges are labelled ")
            .append(
                String.join(" and ", type.outputs().stream().map(o -> "\"" + o + "\"").toList()))
            .append('.');
      }
      out.append('\n');
    }
    return out.toString();
  }

  private String load() {
    try (InputStream in =
        CanvasContract.class.getResourceAsStream("/generate/canvas-contract.md")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("%NODE_TYPES%", nodeTypes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
