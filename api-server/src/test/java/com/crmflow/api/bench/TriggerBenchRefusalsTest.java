package com.crmflow.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.TestJvms;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * bench/TriggerBench.java counts a 429 or 503 answer as a refusal and reports it: against a
 * stand-in service that accepts one trigger in three (and posts it to the harness's sink), refuses
 * the next with 429 and the next with 503, the harness exits 0 with accepted=3 refused=6 errors=0
 * and every accepted trigger completed.
 */
class TriggerBenchRefusalsTest {

  @Test
  void refusedTriggersAreCountedAndReportedNotWaitedFor() throws Exception {
    int sinkPort;
    try (var probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      sinkPort = probe.getLocalPort();
    }
    HttpClient client = HttpClient.newHttpClient();
    AtomicInteger calls = new AtomicInteger();
    HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    service.createContext(
        "/trigger",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          int status =
              switch (calls.getAndIncrement() % 3) {
                case 0 -> 200;
                case 1 -> 429;
                default -> 503;
              };
          if (status == 200) {
            try {
              client.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sinkPort + "/sink"))
                      .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                      .build(),
                  HttpResponse.BodyHandlers.discarding());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    service.start();
    try {
      List<String> command =
          new ArrayList<>(
              List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      command.addAll(TestJvms.OPTIONS);
      command.addAll(
          List.of(
              "bench/TriggerBench.java",
              "--url",
              "http://127.0.0.1:" + service.getAddress().getPort() + "/trigger",
              "--n",
              "9",
              "--concurrency",
              "1",
              "--timeout-s",
              "20",
              "--sink-port",
              String.valueOf(sinkPort),
              "--label",
              "refusals"));
      Process harness =
          new ProcessBuilder(command)
              .directory(BenchScript.repo().toFile())
              .redirectErrorStream(true)
              .start();
      harness.getOutputStream().close();
      String output;
      try (var out = harness.getInputStream()) {
        output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      }
      assertThat(harness.waitFor(1, TimeUnit.MINUTES)).as(output).isTrue();

      assertThat(harness.exitValue()).as(output).isZero();
      assertThat(output.lines().toList())
          .as(output)
          .anySatisfy(
              line ->
                  assertThat(line)
                      .startsWith(
                          "RESULT label=refusals n=9 sent=9 accepted=3 refused=6 errors=0"
                              + " completed=3 lost=0 "))
          .anySatisfy(line -> assertThat(line).contains("refused (429/503): 6"));
      assertThat(calls).hasValue(9);
    } finally {
      service.stop(0);
    }
  }
}
