package com.crmflow.api.generate;

import com.crmflow.api.config.CrmProperties;
import com.crmflow.api.customfield.CustomField;
import com.crmflow.api.customfield.CustomFieldRepository;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.CanvasRules;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Which generator drafts a flow: the language model when one is configured ({@code
 * crm.generate.llm.*}) and the tenant is not kept off it, else (and whenever the model fails) the
 * offline parser. Whatever drafts it, the flow passes the same canvas checks.
 */
@Service
class FlowGeneration {

  /** Who produced a flow: the X-Flow-Generator header of POST /generate. */
  enum Generator {
    LLM,
    OFFLINE;

    String header() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  record Generated(Canvas canvas, Generator generator) {}

  private final FlowGenerator offline;
  private final CustomFieldRepository customFields;
  private final CrmProperties.Llm settings;
  private final LlmFlowGenerator llm;

  FlowGeneration(
      FlowGenerator offline, CustomFieldRepository customFields, CrmProperties properties) {
    this.offline = offline;
    this.customFields = customFields;
    this.settings = properties.generate().llm();
    this.llm = settings.enabled() ? new LlmFlowGenerator(chatModel(settings)) : null;
  }

  /** The drafted flow, or empty when neither generator understood the prompt. */
  Optional<Generated> generate(UUID tenantId, String prompt, boolean automation) {
    if (llm != null && !settings.offForTenants().contains(tenantId)) {
      Optional<Canvas> drafted =
          llm.generate(
              prompt,
              automation,
              customFields.list(tenantId, null).stream().map(CustomField::fieldKey).toList(),
              canvas -> problems(canvas, automation));
      if (drafted.isPresent()) {
        return Optional.of(new Generated(drafted.get(), Generator.LLM));
      }
    }
    return offline
        .generate(prompt, automation)
        .map(canvas -> new Generated(canvas, Generator.OFFLINE));
  }

  /** What keeps a flow from being saved complete: the graph's rules, then each node's config. */
  static List<CanvasProblem> problems(Canvas canvas, boolean automation) {
    List<CanvasProblem> problems = new ArrayList<>(CanvasRules.structural(canvas));
    if (problems.isEmpty()) {
      problems.addAll(CanvasRules.completeness(canvas, automation));
    }
    return problems;
  }

  private static ChatModel chatModel(CrmProperties.Llm settings) {
    if (settings.model() == null || settings.model().isBlank()) {
      throw new IllegalStateException(
          "crm.generate.llm.model is required with crm.generate.llm.provider="
              + settings.provider());
    }
    boolean ownUrl = settings.baseUrl() != null && !settings.baseUrl().isBlank();
    return switch (settings.provider()) {
      case "openai" -> {
        OpenAiChatModel.OpenAiChatModelBuilder builder =
            OpenAiChatModel.builder()
                .modelName(settings.model())
                // local servers (Ollama, vLLM, LM Studio) take any key
                .apiKey(settings.apiKey() == null ? "none" : settings.apiKey())
                .timeout(settings.timeout())
                .maxRetries(0)
                .maxTokens(settings.maxTokens());
        yield (ownUrl ? builder.baseUrl(settings.baseUrl()) : builder).build();
      }
      case "anthropic" -> {
        AnthropicChatModel.AnthropicChatModelBuilder builder =
            AnthropicChatModel.builder()
                .modelName(settings.model())
                .apiKey(settings.apiKey())
                .timeout(settings.timeout())
                .maxRetries(0)
                .maxTokens(settings.maxTokens());
        yield (ownUrl ? builder.baseUrl(settings.baseUrl()) : builder).build();
      }
      default ->
          throw new IllegalStateException(
              "crm.generate.llm.provider must be none, openai or anthropic");
    };
  }
}
