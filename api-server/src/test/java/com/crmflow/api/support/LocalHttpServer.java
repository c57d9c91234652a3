package com.crmflow.api.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP server on loopback for tests: records every request and answers each path with a
 * configurable status and JSON body (default 200 {"ok":true}); answers queued with {@link
 * #answerOnce} are used first, one per request, for scripting retries.
 */
public final class LocalHttpServer implements AutoCloseable {

  private final ExecutorService handlers = Executors.newFixedThreadPool(8);

  /**
   * One request as received.
   *
   * @param path its path, decoded
   * @param target its request target as sent: the raw path and query ({@code /a%2Fb?x=1})
   */
  public record Received(
      String method,
      String path,
      Map<String, List<String>> headers,
      String body,
      Instant at,
      String target) {
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  private record Answer(int status, String body, Map<String, String> headers) {}

  private final HttpServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final Map<String, Queue<Answer>> onceAnswers = new ConcurrentHashMap<>();
  private final Map<String, CountDownLatch> held = new ConcurrentHashMap<>();
  private final Set<String> hungUp = ConcurrentHashMap.newKeySet();

  public LocalHttpServer() {
    this(0);
  }

  /** On this port (0: any free one). */
  public LocalHttpServer(int port) {
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
    server.start();
  }

  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public void answer(String path, int status, String jsonBody) {
    answers.put(path, new Answer(status, jsonBody, Map.of()));
  }

  /** Answers the next request to the path (after earlier queued ones) with this, once. */
  public void answerOnce(String path, int status, String jsonBody, Map<String, String> headers) {
    onceAnswers
        .computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>())
        .add(new Answer(status, jsonBody, headers));
  }

  /** Requests to the path are read and recorded, then the connection is closed with no answer. */
  public void hangUp(String path) {
    hungUp.add(path);
  }

  /** Answers requests to the path again (see {@link #hangUp}). */
  public void stopHangingUp(String path) {
    hungUp.remove(path);
  }

  /** Requests to the path wait (at most a minute) for {@link #release} before they are answered. */
  public void hold(String path) {
    held.put(path, new CountDownLatch(1));
  }

  /** Answers the held requests to the path, and answers later ones at once. */
  public void release(String path) {
    CountDownLatch latch = held.remove(path);
    if (latch != null) {
      latch.countDown();
    }
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  public List<Received> received(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = exchange.getRequestURI().getPath();
    received.add(
        new Received(
            exchange.getRequestMethod(),
            path,
            Map.copyOf(exchange.getRequestHeaders()),
            body,
            Instant.now(),
            exchange.getRequestURI().toString()));
    if (hungUp.contains(path)) {
      // no status line: the client sees the connection end after its request went out
      exchange.close();
      return;
    }
    CountDownLatch hold = held.get(path);
    if (hold != null) {
      try {
        hold.await(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Queue<Answer> queued = onceAnswers.get(path);
    Answer answer = queued == null ? null : queued.poll();
    if (answer == null) {
      answer = answers.getOrDefault(path, new Answer(200, "{\"ok\":true}", Map.of()));
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    answer.headers().forEach(exchange.getResponseHeaders()::add);
    exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    held.values().forEach(CountDownLatch::countDown);
    server.stop(0);
    // its threads are not daemons: left running, they keep the test JVM from exiting
    handlers.shutdownNow();
  }
}
