package com.crmflow.api.generate;

import com.crmflow.workflow.canvas.NodeType;
import com.crmflow.workflow.event.EventNames;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a language model is told about flows: the node types with their config fields, the edge
 * rules and the template variables (resources/generate/canvas-contract.md), and the one tool it
 * must answer with, {@code save_flow {nodes: [{id, type, label, config}], edges: [{source, target,
 * label}]}}. Tool use is the structured output both providers enforce.
 */
final class CanvasContract {

  static final String TOOL = "save_flow";

  static final List<String> NODE_TYPES = NodeType.names();

  private static final String TEXT = load();

  /** The save_flow tool, the same for every request. */
  static final ToolSpecification TOOL_SPEC = tool();

  private CanvasContract() {}

  /**
   * The system prompt: the contract, whether the flow is an automation or a sequence, and the
   * tenant's custom field keys (the only data of the tenant that leaves the service).
   */
  static String systemPrompt(boolean automation, List<String> customFieldKeys) {
    StringBuilder prompt = new StringBuilder(TEXT);
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

  private static ToolSpecification tool() {
    JsonObjectSchema node =
        JsonObjectSchema.builder()
            .addStringProperty("id", "short and unique in the flow")
            .addEnumProperty("type", NODE_TYPES)
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

  private static String load() {
    try (InputStream in =
        CanvasContract.class.getResourceAsStream("/generate/canvas-contract.md")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("%EVENT_NAMES%", String.join(", ", EventNames.ALL));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
