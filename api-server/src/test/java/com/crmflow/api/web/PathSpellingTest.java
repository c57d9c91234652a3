package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every guard decides on the path the dispatcher matches: a path spelled so that it reads one way
 * as sent and another decoded (encoded letters, {@code ;} parameters, dot segments, doubled or
 * encoded slashes) is refused with a 400 problem before any guard or handler, and no spelling gets
 * a 5xx or what a guard keeps (metrics, the admin API, a tenant's records, the console without its
 * headers).
 */
class PathSpellingTest extends ApiTest {

  private static final String TENANT = UUID.randomUUID().toString();

  /** What a guarded answer holds, which no refused spelling may show. */
  private static final List<String> GUARDED =
      List.of("# HELP", "jvm_", "\"names\"", "\"tenants\"", "\"contacts\"", "<html", "<!doctype");

  /** The spellings the review found, then others, each aimed at one guard's path. */
  static Stream<Arguments> spellings() {
    List<Arguments> all = new ArrayList<>();
    String trigger = "/api/webhooks/automation/" + TENANT + "/hook";
    // management access (the admin token)
    for (String path :
        List.of(
            "/%61ctuator/prometheus",
            "/actuator;x=1/prometheus",
            "/%61ctuator/metrics",
            "/actuator/health/../prometheus",
            "/actuator/health/./../prometheus",
            "/actuator/./prometheus",
            "/actuator//prometheus",
            "//actuator/prometheus",
            "/actuator/%70rometheus",
            "/actuator/prometheus;jsessionid=1",
            "/actuator/health/%2e%2e/prometheus",
            "/actuator/health/%2E%2E/prometheus",
            "/%2561ctuator/prometheus",
            "/actuator/health;/../prometheus",
            "/actuator/health/..;/prometheus",
            "/actuator/%3Bx/prometheus",
            "/actu%61tor/prometheus")) {
      all.add(Arguments.of("management", "GET", path));
    }
    // the console's security headers
    for (String path :
        List.of(
            "/%63onsole/",
            "/console;x=1/",
            "/console/./",
            "//console/",
            "/console/%69ndex.html",
            "/console/assets/../index.html",
            "/x/../console/")) {
      all.add(Arguments.of("console", "GET", path));
    }
    // the admin token
    for (String path :
        List.of(
            "/%61dmin/v1/tenants",
            "/admin;x=1/v1/tenants", "/admin/v1/../v1/tenants", "/admin//v1/tenants")) {
      all.add(Arguments.of("admin", "GET", path));
    }
    // the API key
    for (String path :
        List.of(
            "/%61pi/v1/contacts",
            "/api/v1;x=1/contacts",
            "/api/v1/contacts/../contacts",
            "/api/v1//contacts",
            "/api/v1/c%6Fntacts")) {
      all.add(Arguments.of("api key", "GET", path));
    }
    // the trigger quota
    for (String path :
        List.of(
            trigger.replace("/automation/", "/%61utomation/"),
            trigger.replace("/automation/", "/automation;x=1/"),
            trigger.replace("/webhooks/", "/webhooks/./"),
            trigger.replace("/webhooks/", "/webhooks//"),
            "/api/webhooks/automation/%"
                + Integer.toHexString(TENANT.charAt(0))
                + TENANT.substring(1)
                + "/hook")) {
      all.add(Arguments.of("trigger quota", "POST", path));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}: {1} {2}")
  @MethodSource("spellings")
  void aPathThatReadsDifferentlyDecodedIsRefusedBeforeAnyGuard(
      String guard, String method, String path) {
    ApiResponse answer =
        anonymous().send(method, path, "POST".equals(method) ? "{}" : null, "application/json");

    assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
    assertThat(answer.contentType()).startsWith("application/problem+json");
    assertThat(answer.at("/status").asInt()).isEqualTo(400);
    assertThat(answer.text("/detail"))
        .as(answer.toString())
        .startsWith("The request's path holds ")
        .contains("reads differently as sent and as decoded");
    assertThat(answer.rawBody()).doesNotContain(GUARDED.toArray(String[]::new));
    assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
  }

  /**
   * Spellings Tomcat or the handlers answer, sent as they are over a socket (some are no URI a
   * client library would send): never a 5xx, never what a guard keeps, and a refusal is a problem.
   */
  static Stream<String> otherSpellings() {
    return Stream.of(
        "/actuator%2Fprometheus",
        "/actuator/health%2F..%2Fprometheus",
        "/actuator/health/%2e%2e%2fprometheus",
        "/actuator/prometheus%00",
        "/actuator/%ZZ",
        "/actuator/%",
        "/actuator/health/x",
        "/actuator/health/..",
        "/actuator/health/",
        "/ACTUATOR/prometheus",
        "/actuator/prometheus/",
        "/actuator/prometheus.txt",
        "/actuator/health/%20",
        "/actuator\\prometheus",
        "/console/%",
        "/console/..%2f..%2factuator/prometheus",
        "/api/v1/contacts/%C3%A9",
        "/api/webhooks/automation/%2F/x");
  }

  @ParameterizedTest(name = "GET {0}")
  @MethodSource("otherSpellings")
  void noSpellingGetsAServerErrorOrAGuardedAnswer(String target) throws Exception {
    String answer = sendAsIs(target);
    int status = Integer.parseInt(answer.substring(9, 12));

    assertThat(status).as(answer).isBetween(200, 499);
    assertThat(answer).doesNotContain(GUARDED.toArray(String[]::new));
    if (status == 400) {
      assertThat(answer.toLowerCase(Locale.ROOT))
          .as(answer)
          .contains("content-type: application/problem+json");
    }
  }

  /** The whole answer to {@code GET target}, its request line written byte for byte. */
  private String sendAsIs(String target) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The plain spellings are decided by their guards, as before. */
  @Test
  void plainPathsReachTheirGuards() {
    ApiClient anonymous = anonymous();
    assertThat(anonymous.get("/actuator/prometheus").status()).isEqualTo(401);
    assertThat(anonymous.get("/actuator/metrics").status()).isEqualTo(401);
    assertThat(anonymous.get("/actuator/health").status()).isEqualTo(200);
    ApiResponse metrics = admin().get("/actuator/prometheus");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.rawBody()).contains("# HELP");
    assertThat(anonymous.get("/admin/v1/tenants").status()).isEqualTo(401);
    assertThat(anonymous.get("/api/v1/contacts").status()).isEqualTo(401);
    ApiResponse console = anonymous.get("/console/");
    assertThat(console.header("Content-Security-Policy")).contains("frame-ancestors 'none'");
    assertThat(console.header("X-Frame-Options")).isEqualTo("DENY");
    // an escape of a character with no other spelling in a path passes: a contact id that is no
    // UUID is the controller's 400 about the id, not a refusal of the path
    ApiResponse accented = newTenant().api().get("/api/v1/contacts/caf%C3%A9");
    assertThat(accented.status()).as(accented.toString()).isEqualTo(400);
    assertThat(accented.text("/detail")).doesNotStartWith("The request's path holds");
  }
}
