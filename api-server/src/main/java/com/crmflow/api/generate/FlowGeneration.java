package com.crmflow.api.generate;

import com.crmflow.api.customfield.CustomField;
import com.crmflow.api.customfield.CustomFieldRepository;
import com.crmflow.api.nodetype.NodeTypes;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.rules.CanvasRules;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.stereotype.Service;

/**
 * Which generator drafts a flow: the language model when one is configured ({@code
 * crm.generate.llm.*}) and the tenant is not kept off it, else (and whenever the model fails) the
 * offline parser. Whatever drafts it, the flow passes the same canvas checks.
 */
@Service
class FlowGeneration {

  private static final Logger log = LoggerFactory.getLogger(FlowGeneration.class);

  /** Who produced a flow: the X-Flow-Generator header of POST /generate. */
  enum Generator {
    LLM,
    OFFLINE;

    String header() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * What the generators made of a prompt.
   *
   * @param canvas the flow, or empty when nothing usable was understood
   * @param generator who drafted it (or, with no flow, who answered last: the offline parser)
   * @param unclear the clauses the offline parser could not tie to one record or field; the flow is
   *     not used when there are any
   * @param reenroll the re-enrollment rule the prompt names, or null
   */
  record Generated(
      Optional<Canvas> canvas,
      Generator generator,
      List<FlowGenerator.Unclear> unclear,
      FlowGenerator.Reenroll reenroll) {}

  private final FlowGenerator offline;
  private final CustomFieldRepository customFields;
  private final NodeTypes nodeTypes;
  private final CrmProperties.Llm settings;
  private final LlmFlowGenerator llm;

  /** The most model calls at once; more requests get the offline parser's draft at once. */
  static final int MAX_CALLS = 16;

  private final ExecutorService calls =
      new ThreadPoolExecutor(
          0,
          MAX_CALLS,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          new CustomizableThreadFactory("flow-generation-"));

  FlowGeneration(
      FlowGenerator offline,
      CustomFieldRepository customFields,
      NodeTypes nodeTypes,
      CrmProperties properties) {
    this.offline = offline;
    this.nodeTypes = nodeTypes;
    this.customFields = customFields;
    this.settings = properties.generate().llm();
    CanvasContract contract = new CanvasContract(nodeTypes);
    this.llm =
        settings.enabled()
            ? new LlmFlowGenerator(
                chatModel(settings),
                contract,
                toolParameters(settings.provider(), contract),
                settings.provider().equals("anthropic"))
            : null;
  }

  /**
   * The drafted flow: the model's when it drafts a valid one within {@code
   * crm.generate.llm.timeout} (its draft and its repair round together), else the offline parser's.
   * The calling thread waits no longer than that timeout for the model.
   */
  Generated generate(UUID tenantId, String prompt, boolean automation) {
    if (llm != null && !settings.offForTenants().contains(tenantId)) {
      List<String> keys =
          customFields.list(tenantId, null).stream().map(CustomField::fieldKey).toList();
      Optional<Canvas> drafted = withinTimeout(prompt, automation, keys);
      if (drafted.isPresent()) {
        return new Generated(drafted, Generator.LLM, List.of(), null);
      }
    }
    FlowGenerator.Reading read = offline.read(prompt, automation);
    return new Generated(read.flow(), Generator.OFFLINE, read.unclear(), read.reenroll());
  }

  /**
   * The model's draft, or empty when it has none within the timeout: the call runs on a thread of
   * its own, which is interrupted (and its HTTP exchange cancelled) when the time is up. A model
   * that is slow to load on its first call, or slow to answer, costs the caller the timeout and no
   * more; when every model thread is busy, the offline parser answers at once.
   */
  private Optional<Canvas> withinTimeout(String prompt, boolean automation, List<String> keys) {
    Future<Optional<Canvas>> call;
    try {
      call =
          calls.submit(
              () ->
                  llm.generate(
                      prompt, automation, keys, canvas -> problems(canvas, automation, nodeTypes)));
    } catch (RejectedExecutionException e) {
      log.info("Every language model call is busy ({}): the offline parser answers", MAX_CALLS);
      return Optional.empty();
    }
    try {
      return call.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      log.info(
          "The language model drafted no flow within {}: the offline parser answers",
          settings.timeout());
      return Optional.empty();
    } catch (ExecutionException e) {
      log.warn("The language model could not draft a flow: {}", e.getCause().toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @PreDestroy
  void stop() {
    calls.shutdownNow();
  }

  /** What keeps a drafted flow from being saved complete, with the API's node types. */
  List<CanvasProblem> problems(Canvas canvas, boolean automation) {
    return problems(canvas, automation, nodeTypes);
  }

  /**
   * What keeps a flow from being saved complete: the graph's rules, then each node's config, with
   * the node types of this catalog.
   */
  static List<CanvasProblem> problems(Canvas canvas, boolean automation, NodeCatalog catalog) {
    List<CanvasProblem> problems = new ArrayList<>(CanvasRules.structural(canvas, catalog));
    if (problems.isEmpty()) {
      problems.addAll(CanvasRules.completeness(canvas, automation, catalog));
    }
    return problems;
  }

  /**
   * The save_flow tool and how the provider is told to call it. Anthropic: {@code tool_choice
   * {type: any}} (ToolChoice.REQUIRED). OpenAI-compatible servers: the tool named, {@code
   * tool_choice {type: function, function: {name: save_flow}}}, which OpenAI, vLLM and
   * llama-cpp-python's server enforce, and Ollama and llama.cpp's own server accept (reading it as
   * "auto"); {@code "required"} is refused by llama-cpp-python's server (a 500) and by llama.cpp's
   * without --jinja. See docs/configuration.md.
   */
  static ChatRequestParameters toolParameters(String provider, CanvasContract contract) {
    if (provider.equals("anthropic")) {
      return ChatRequestParameters.builder()
          .toolSpecifications(contract.toolSpec())
          .toolChoice(ToolChoice.REQUIRED)
          .build();
    }
    Map<String, Object> function = new LinkedHashMap<>();
    function.put("type", "function");
    function.put("function", Map.of("name", CanvasContract.TOOL));
    return OpenAiChatRequestParameters.builder()
        .toolSpecifications(contract.toolSpec())
        .customParameters(Map.of("tool_choice", function))
        .build();
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
