package com.crmflow.api.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A real HTTPS server on loopback with a self-signed certificate made by the JDK's keytool for
 * 127.0.0.1; {@link #certificatePem()} is what a client must trust. Records every request with its
 * raw body bytes and answers each path from a script: one-time answers first, then the default.
 */
public final class HttpsReceiver implements AutoCloseable {

  private final ExecutorService handlers = Executors.newFixedThreadPool(16);

  /** One request as received. */
  public record Received(String path, Map<String, List<String>> headers, byte[] body, Instant at) {
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }
  }

  /** An answer: wait {@code delayMillis}, then this status (with a Location for redirects). */
  public record Answer(int status, long delayMillis) {}

  private final Path directory;
  private final HttpsServer server;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, Answer> defaults = new ConcurrentHashMap<>();
  private final Map<String, Queue<Answer>> once = new ConcurrentHashMap<>();
  private final Map<String, String> locations = new ConcurrentHashMap<>();

  public HttpsReceiver() {
    try {
      directory = Files.createTempDirectory("https-receiver");
      Path keystore = directory.resolve("receiver.p12");
      keytool(
          "-genkeypair",
          "-alias",
          "receiver",
          "-keyalg",
          "RSA",
          "-keysize",
          "2048",
          "-validity",
          "2",
          "-dname",
          "CN=127.0.0.1",
          "-ext",
          "SAN=ip:127.0.0.1,dns:localhost",
          "-keystore",
          keystore.toString(),
          "-storetype",
          "PKCS12",
          "-storepass",
          "changeit",
          "-keypass",
          "changeit");
      keytool(
          "-exportcert",
          "-alias",
          "receiver",
          "-keystore",
          keystore.toString(),
          "-storepass",
          "changeit",
          "-rfc",
          "-file",
          certificatePem().toString());
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keystore)) {
        keys.load(in, "changeit".toCharArray());
      }
      KeyManagerFactory keyManagers =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, "changeit".toCharArray());
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(keyManagers.getKeyManagers(), null, null);
      server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      server.setExecutor(handlers);
      server.createContext("/", this::handle);
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the HTTPS receiver", e);
    }
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    String[] command = new String[args.length + 1];
    command[0] = keytool;
    System.arraycopy(args, 0, command, 1, args.length);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (process.waitFor() != 0) {
      throw new IOException("keytool failed: " + output);
    }
  }

  /** The receiver's certificate (PEM), to trust through crm.http.trusted-certificates. */
  public Path certificatePem() {
    return directory.resolve("receiver.pem");
  }

  public String url(String path) {
    return "https://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  public void answer(String path, int status) {
    defaults.put(path, new Answer(status, 0));
  }

  public void answerOnce(String path, int status, long delayMillis) {
    once.computeIfAbsent(path, p -> new ConcurrentLinkedQueue<>())
        .add(new Answer(status, delayMillis));
  }

  /**
   * Answers requests to the path with a 302 to this Location (sent as it is, whatever it holds).
   */
  public void redirect(String path, String location) {
    locations.put(path, location);
    answer(path, 302);
  }

  public List<Received> received(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    byte[] body = exchange.getRequestBody().readAllBytes();
    received.add(new Received(path, Map.copyOf(exchange.getRequestHeaders()), body, Instant.now()));
    Queue<Answer> queued = once.get(path);
    Answer answer = queued == null ? null : queued.poll();
    if (answer == null) {
      answer = defaults.getOrDefault(path, new Answer(200, 0));
    }
    try {
      if (answer.delayMillis() > 0) {
        Thread.sleep(answer.delayMillis());
      }
      if (answer.status() >= 300 && answer.status() < 400) {
        exchange
            .getResponseHeaders()
            .add("Location", locations.getOrDefault(path, url("/redirected")));
      }
      exchange.sendResponseHeaders(answer.status(), -1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientGone) {
      // the client timed out and closed the connection
    } finally {
      exchange.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    // its threads are not daemons: left running, they keep the test JVM from exiting
    handlers.shutdownNow();
    try (var files = Files.list(directory)) {
      files.forEach(f -> f.toFile().delete());
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
