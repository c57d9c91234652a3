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

  /**
   * One answer.
   *
   * @param delayMillis how long before the answer; with {@code trickled}, how long its body takes,
   *     its status and headers sent at once (a model server that streams a slow answer)
   */
  record Answer(int status, String body, long delayMillis, boolean trickled) {

    Answer(int status, String body, long delayMillis) {
      this(status, body, delayMillis, false);
    }

    /** This answer, its body sent over the delay after its headers. */
    Answer trickledOver(long millis) {
      return new Answer(status, body, millis, true);
    }
  }

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
          byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          try {
            if (!answer.trickled()) {
              Thread.sleep(answer.delayMillis());
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              if (answer.trickled()) {
                // headers at once, then the body a byte at a time over the delay
                for (int i = 0; i < body.length; i++) {
                  out.write(body[i]);
                  out.flush();
                  Thread.sleep(answer.delayMillis() / body.length);
                }
              } else {
                out.write(body);
              }
            }
          } catch (IOException e) {
            // the client gave up waiting (the timeout case)
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

  /**
   * As llama-cpp-python's server answers a forced tool call: the call as {@code tool_calls} and
   * again as the legacy {@code function_call}.
   */
  static Answer llamaCppToolCall(String arguments) {
    String quoted = JSON.writeValueAsString(arguments);
    return new Answer(
        200,
        """
        {"id":"chatcmpl-test","object":"chat.completion","created":1764000000,
         "model":"smollm2-135m-instruct",
         "choices":[{"index":0,"message":{"content":null,
           "tool_calls":[{"id":"call__0_save_flow_cmpl-test","type":"function",
             "function":{"name":"save_flow","arguments":%s}}],
           "role":"assistant","function_call":{"name":"save_flow","arguments":%s}},
           "logprobs":null,"finish_reason":"tool_calls"}],
         "usage":{"prompt_tokens":1700,"completion_tokens":120,"total_tokens":1820}}
        """
            .formatted(quoted, quoted),
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
