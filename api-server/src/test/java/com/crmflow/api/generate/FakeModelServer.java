package com.crmflow.api.generate;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * A loopback HTTP server that answers as a model provider does: OpenAI's chat completions ({@code
 * POST /v1/chat/completions}) and Anthropic's Messages API ({@code POST /v1/messages}), with the
 * response shapes their API references document. A test queues the answers; the server keeps every
 * request body it received.
 */
final class FakeModelServer implements AutoCloseable {

  record Answer(int status, String body, long delayMillis) {}

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpServer server;
  private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  FakeModelServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/v1/",
        exchange -> {
          requests.add(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          Answer answer;
          try {
            answer = answers.poll(5, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          if (answer == null) {
            answer = new Answer(500, "{\"error\":{\"message\":\"no answer queued\"}}", 0);
          }
          try {
            Thread.sleep(answer.delayMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          try {
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          } catch (IOException e) {
            // the client gave up waiting (the timeout case)
          }
        });
    // a slow answer (the timeout case) must not hold up the next request
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/";
  }

  void queue(Answer... queued) {
    answers.clear();
    requests.clear();
    answers.addAll(List.of(queued));
  }

  List<String> requests() {
    return requests;
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // --- OpenAI chat completions ---

  /** A chat completion whose message calls save_flow with these arguments (a JSON text). */
  static Answer openAiToolCall(String arguments) {
    return new Answer(
        200,
        """
        {"id":"chatcmpl-test","object":"chat.completion","created":1764000000,"model":"gpt-test",
         "choices":[{"index":0,"message":{"role":"assistant","content":null,
           "tool_calls":[{"id":"call_1","type":"function",
             "function":{"name":"save_flow","arguments":%s}}]},
           "finish_reason":"tool_calls"}],
         "usage":{"prompt_tokens":900,"completion_tokens":120,"total_tokens":1020}}
        """
            .formatted(JSON.writeValueAsString(arguments)),
        0);
  }

  static Answer openAiRateLimited() {
    return new Answer(
        429,
        """
        {"error":{"message":"Rate limit reached for requests","type":"requests",
          "param":null,"code":"rate_limit_exceeded"}}
        """,
        0);
  }

  // --- Anthropic Messages ---

  /** A message whose content is a tool_use block calling save_flow with this input. */
  static Answer anthropicToolUse(String input) {
    return new Answer(
        200,
        """
        {"id":"msg_test","type":"message","role":"assistant","model":"claude-test",
         "content":[{"type":"tool_use","id":"toolu_1","name":"save_flow","input":%s}],
         "stop_reason":"tool_use","stop_sequence":null,
         "usage":{"input_tokens":900,"output_tokens":120}}
        """
            .formatted(input),
        0);
  }

  static Answer anthropicRateLimited() {
    return new Answer(
        429,
        """
        {"type":"error","error":{"type":"rate_limit_error",
          "message":"Number of request tokens has exceeded your per-minute rate limit"}}
        """,
        0);
  }
}
