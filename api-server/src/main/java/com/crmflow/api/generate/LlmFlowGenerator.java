package com.crmflow.api.generate;

import com.crmflow.workflow.canvas.Canvas;
import com.crmflow.workflow.canvas.CanvasEdge;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.canvas.CanvasProblem;
import com.crmflow.workflow.canvas.NodeData;
import com.crmflow.workflow.canvas.Position;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Drafts a flow with a language model: the contract as the system prompt, the user's prompt, and
 * the {@code save_flow} tool the model must call. A draft with problems (unreadable JSON, or what
 * the canvas checks find) goes back once with the problems listed; a second draft with problems, or
 * any error of the provider (a timeout, its own 429, a 5xx, an answer without the tool call), is
 * empty, and the caller falls back to the offline parser.
 */
final class LlmFlowGenerator {

  private static final Logger log = LoggerFactory.getLogger(LlmFlowGenerator.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final ChatModel model;
  private final CanvasContract contract;
  private final ChatRequestParameters tools;
  private final boolean repairAsToolResult;

  /**
   * @param tools the save_flow tool, and how this provider is told that it must be called
   * @param repairAsToolResult whether the repair round answers the draft's tool call (Anthropic) or
   *     quotes the draft in a user message (OpenAI-compatible servers)
   */
  LlmFlowGenerator(
      ChatModel model,
      CanvasContract contract,
      ChatRequestParameters tools,
      boolean repairAsToolResult) {
    this.model = model;
    this.contract = contract;
    this.tools = tools;
    this.repairAsToolResult = repairAsToolResult;
  }

  /**
   * @param problemsOf what the canvas checks find in a draft (empty: the draft is a valid flow)
   */
  Optional<Canvas> generate(
      String prompt,
      boolean automation,
      List<String> customFieldKeys,
      Function<Canvas, List<CanvasProblem>> problemsOf) {
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(SystemMessage.from(contract.systemPrompt(automation, customFieldKeys)));
    messages.add(UserMessage.from(prompt));
    try {
      for (int round = 1; round <= 2; round++) {
        AiMessage answer =
            model
                .chat(ChatRequest.builder().messages(messages).parameters(tools).build())
                .aiMessage();
        // a server may answer a call twice, as tool_calls and as the legacy function_call (which
        // has no id): the one with an id is the call the repair round answers
        ToolExecutionRequest call =
            answer.toolExecutionRequests().stream()
                .filter(c -> CanvasContract.TOOL.equals(c.name()))
                .min(Comparator.comparing(c -> c.id() == null))
                .orElse(null);
        if (call == null) {
          log.info("The language model answered without calling {}", CanvasContract.TOOL);
          return Optional.empty();
        }
        List<String> problems = new ArrayList<>();
        List<String> logged = new ArrayList<>();
        Canvas draft = read(call.arguments(), contract.nodeTypeNames(), problems, logged);
        if (draft != null) {
          problemsOf.apply(draft).stream().map(LlmFlowGenerator::describe).forEach(problems::add);
          logged.addAll(problems);
        }
        if (problems.isEmpty()) {
          return Optional.of(withFreshIds(draft));
        }
        // what the draft held stays out of the log: its config may carry header values and keys
        log.info("Draft {} of the language model has problems: {}", round, logged);
        String repair =
            "The flow was not saved. Fix these problems and call "
                + CanvasContract.TOOL
                + " again with the whole corrected flow:\n- "
                + String.join("\n- ", problems);
        if (repairAsToolResult) {
          // the draft as the one call that was read, answered by its id
          messages.add(AiMessage.from(call));
          messages.add(ToolExecutionResultMessage.from(call, repair));
        } else {
          // OpenAI-compatible servers: the draft quoted in a user message. Servers differ in what
          // they take back as an assistant's tool call (llama-cpp-python's refuses one without
          // content, and its own id-less function_call copy); a user message every one takes
          messages.add(
              UserMessage.from(
                  "Your draft called "
                      + CanvasContract.TOOL
                      + " with:\n"
                      + call.arguments()
                      + "\n\n"
                      + repair));
        }
      }
      return Optional.empty();
    } catch (RuntimeException e) {
      // a timeout, the provider's 429 or 5xx, a refused key: the offline parser answers instead
      log.warn("The language model could not draft a flow: {}", e.toString());
      return Optional.empty();
    }
  }

  /**
   * The tool call's arguments as a canvas, or null with the reasons: in {@code problems} for the
   * model, in {@code logged} for the log. A logged reason names nodes by id and type and never
   * quotes the draft's text, whose config may hold header values and keys.
   *
   * @param types the names a node's type may have
   */
  static Canvas read(
      String arguments, List<String> types, List<String> problems, List<String> logged) {
    JsonNode flow;
    try {
      flow = JSON.readTree(arguments);
    } catch (JacksonException e) {
      // the parser's message quotes the text it stopped at: the model's, not the log's
      problems.add("the arguments are not valid JSON: " + e.getOriginalMessage());
      logged.add(
          "the arguments are not valid JSON (line "
              + (e.getLocation() == null ? "?" : e.getLocation().getLineNr())
              + ", column "
              + (e.getLocation() == null ? "?" : e.getLocation().getColumnNr())
              + ")");
      return null;
    }
    if (!flow.path("nodes").isArray() || flow.path("nodes").isEmpty()) {
      problems.add("nodes must be a non-empty array");
      logged.add("nodes must be a non-empty array");
      return null;
    }
    List<CanvasNode> nodes = new ArrayList<>();
    for (JsonNode node : flow.path("nodes")) {
      String id = node.path("id").asString("");
      String type = node.path("type").asString("");
      if (id.isBlank() || !types.contains(type)) {
        String problem =
            "node " + named(id, type) + " needs an id and a type among " + String.join(", ", types);
        problems.add(problem);
        logged.add(problem);
        continue;
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> config =
          node.path("config").isObject()
              ? JSON.convertValue(node.path("config"), Map.class)
              : new LinkedHashMap<>();
      nodes.add(
          new CanvasNode(id, type, null, new NodeData(node.path("label").asString(type), config)));
    }
    List<CanvasEdge> edges = new ArrayList<>();
    int n = 0;
    for (JsonNode edge : flow.path("edges")) {
      String label = edge.path("label").asString("");
      boolean branch = label.equals("true") || label.equals("false");
      edges.add(
          new CanvasEdge(
              "e" + ++n,
              edge.path("source").asString(""),
              edge.path("target").asString(""),
              branch ? CanvasEdge.CONDITIONAL : CanvasEdge.DEFAULT,
              branch ? label : null));
    }
    return problems.isEmpty() ? laidOut(new Canvas(nodes, edges)) : null;
  }

  /** A drafted node by its id and type, each cut short: never its label or config. */
  private static String named(String id, String type) {
    return "\"" + shortened(id) + "\" (type \"" + shortened(type) + "\")";
  }

  private static String shortened(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "…";
  }

  /**
   * The draft with new node ids. The model names nodes "trigger", "wait", ...; a webhook trigger's
   * id is unique in the tenant (it is the trigger's address), so a second generated flow must not
   * reuse the first one's. The repair round keeps the model's ids, which its problems name.
   */
  private static Canvas withFreshIds(Canvas draft) {
    Map<String, String> ids = new HashMap<>();
    List<CanvasNode> nodes =
        draft.nodes().stream()
            .map(
                n -> {
                  String id = UUID.randomUUID().toString();
                  ids.put(n.id(), id);
                  return new CanvasNode(id, n.type(), n.position(), n.data());
                })
            .toList();
    List<CanvasEdge> edges =
        draft.edges().stream()
            .map(
                e ->
                    new CanvasEdge(
                        e.id(),
                        ids.getOrDefault(e.source(), e.source()),
                        ids.getOrDefault(e.target(), e.target()),
                        e.type(),
                        e.label()))
            .toList();
    return new Canvas(nodes, edges);
  }

  /** Left to right by distance from the start, 250 px apart; siblings 150 px apart. */
  private static Canvas laidOut(Canvas canvas) {
    Map<String, List<String>> next =
        canvas.edges().stream()
            .collect(
                Collectors.groupingBy(
                    CanvasEdge::source,
                    Collectors.mapping(CanvasEdge::target, Collectors.toList())));
    Map<String, Integer> depth = new HashMap<>();
    Deque<String> queue = new ArrayDeque<>();
    canvas.nodes().stream()
        .map(CanvasNode::id)
        .filter(id -> canvas.edges().stream().noneMatch(e -> e.target().equals(id)))
        .forEach(
            id -> {
              depth.put(id, 0);
              queue.add(id);
            });
    while (!queue.isEmpty()) {
      String id = queue.poll();
      for (String target : next.getOrDefault(id, List.of())) {
        if (!depth.containsKey(target)) {
          depth.put(target, depth.get(id) + 1);
          queue.add(target);
        }
      }
    }
    Map<Integer, Integer> rows = new HashMap<>();
    List<CanvasNode> placed = new ArrayList<>();
    for (CanvasNode node : canvas.nodes()) {
      int column = depth.getOrDefault(node.id(), 0);
      int row = rows.merge(column, 1, Integer::sum) - 1;
      placed.add(
          new CanvasNode(
              node.id(), node.type(), new Position(column * 250.0, row * 150.0), node.data()));
    }
    return new Canvas(placed, canvas.edges());
  }

  private static String describe(CanvasProblem problem) {
    StringBuilder where = new StringBuilder();
    if (problem.nodeId() != null) {
      where.append("node ").append(problem.nodeId()).append(": ");
    }
    if (problem.edgeId() != null) {
      where.append("edge ").append(problem.edgeId()).append(": ");
    }
    if (problem.field() != null) {
      where.append(problem.field()).append(' ');
    }
    return where.append(problem.message()).toString();
  }
}
