package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Schemathesis (from PyPI, pinned) fuzzes every operation of the service's own OpenAPI document,
 * with a fixed seed and a bounded number of examples, against this running service: any 5xx, any
 * status code the document does not list, any answer whose body or content type does not match the
 * document fails the build. It is installed once into a virtualenv under the tool cache ({@code
 * ~/.cache/crmflow/}), its progress shown.
 */
class SchemathesisTest extends ApiTest {

  static final String VERSION = "4.32.5";

  private static final String HOW =
      "Schemathesis needs Python 3.9+ with venv and pip (Debian: apt-get install python3-venv),"
          + " and PyPI.";

  @Test
  void everyOperationAnswersAsTheDocumentSays() throws Exception {
    Path st = installed();
    var tenant = newTenant();
    String key = issueKey(tenant.id(), List.of("*"), 1_000_000);
    // the document is read here and handed over as a file: Schemathesis gives a schema URL ten
    // seconds, which the document's first rendering can take on a busy two-core machine
    ApiResponse served = anonymous().get("/v3/api-docs");
    assertThat(served.status()).as(served.toString()).isEqualTo(200);
    Path document = Files.createTempFile("openapi-", ".json");
    document.toFile().deleteOnExit();
    Files.writeString(document, served.rawBody());
    List<String> command =
        List.of(
            st.toString(),
            "run",
            document.toString(),
            "--url",
            baseUrl(),
            "--header",
            "Authorization: Bearer " + key,
            "--checks",
            "not_a_server_error,status_code_conformance,content_type_conformance,"
                + "response_schema_conformance",
            "--max-examples",
            "10",
            "--seed",
            "42",
            // one worker: Hypothesis on Python 3.11 can fail parsing its own lambdas in parallel
            "--workers",
            "1",
            "--no-color");
    List<String> output = new ArrayList<>();
    int exit = run(command, output, 10);
    String report = String.join("\n", output);
    assertThat(exit).as(report).isZero();
    assertThat(report)
        .as("every operation of the document is tested")
        .contains("Tested: " + operations());
  }

  /** The operations of the served document: each method of each path. */
  private int operations() {
    int count = 0;
    for (JsonNode path : anonymous().get("/v3/api-docs").json().get("paths")) {
      for (String method : path.propertyNames()) {
        if (List.of("get", "put", "post", "patch", "delete").contains(method)) {
          count++;
        }
      }
    }
    return count;
  }

  /** The st command of the pinned version, installed into the tool cache if need be. */
  private static Path installed() throws Exception {
    String cacheHome = System.getenv("XDG_CACHE_HOME");
    Path cache =
        (cacheHome == null || cacheHome.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache")
                : Path.of(cacheHome))
            .resolve("crmflow")
            .resolve("schemathesis-" + VERSION);
    Path st = cache.resolve("bin").resolve("st");
    if (Files.isExecutable(st)) {
      return st;
    }
    System.out.println("[schemathesis] installing " + VERSION + " into " + cache);
    Files.createDirectories(cache.getParent());
    List<String> output = new ArrayList<>();
    if (run(List.of("python3", "-m", "venv", cache.toString()), output, 5) != 0) {
      throw new IllegalStateException("could not create a virtualenv. " + HOW + "\n" + output);
    }
    if (run(
            List.of(
                cache.resolve("bin").resolve("pip").toString(),
                "install",
                "--progress-bar",
                "off",
                "schemathesis==" + VERSION),
            output,
            10)
        != 0) {
      throw new IllegalStateException("pip could not install schemathesis. " + HOW);
    }
    return st;
  }

  /** Runs the command, printing and keeping its output; its exit code. */
  private static int run(List<String> command, List<String> output, int minutes)
      throws IOException, InterruptedException {
    Process process;
    try {
      // in target/: Schemathesis keeps its cache (.schemathesis/) in the working directory
      Files.createDirectories(Path.of("target"));
      process =
          new ProcessBuilder(command)
              .directory(Path.of("target").toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("could not run " + command.get(0) + ". " + HOW, e);
    }
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      lines
          .lines()
          .forEach(
              line -> {
                System.out.println("[schemathesis] " + line);
                output.add(line);
              });
    }
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new IllegalStateException(command.get(0) + " did not finish in " + minutes + " min");
    }
    return process.exitValue();
  }
}
