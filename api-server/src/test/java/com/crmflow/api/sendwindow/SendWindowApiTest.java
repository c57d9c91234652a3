package com.crmflow.api.sendwindow;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.automation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiClient;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.workflow.node.SendWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Send windows on delays and emails, end to end: the zone is the contact's, else the flow's, else
 * the tenant's; the run's log shows the moment it computed and the zone it used.
 */
class SendWindowApiTest extends ApiTest {

  private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

  /** A window of every day that opens three hours from now in the zone (so it is closed now). */
  private static Map<String, Object> closedWindow(String timezone, ZoneId zone) {
    LocalTime from = LocalTime.now(zone).plusHours(3).truncatedTo(ChronoUnit.MINUTES);
    return window(from, from.plusHours(1), timezone);
  }

  private static Map<String, Object> window(LocalTime from, LocalTime to, String timezone) {
    return Map.of(
        "days",
        List.of(1, 2, 3, 4, 5, 6, 7),
        "from",
        from.format(HH_MM),
        "to",
        to.format(HH_MM),
        "timezone",
        timezone);
  }

  private String contact(TenantClient tenant, String email, String timezone) {
    Map<String, Object> body = new HashMap<>(Map.of("email", email));
    if (timezone != null) {
      body.put("timezone", timezone);
    }
    return tenant.api().post("/api/v1/contacts", body).text("/contact/id");
  }

  private JsonNode awaitWaiting(ApiClient api, String runId, int entry) {
    return await()
        .atMost(Patience.EVENTUALLY)
        .until(
            () -> api.get("/api/v1/automation-runs/" + runId).at("/run/node_log/" + entry),
            logged -> "running".equals(logged.path("status").asString()));
  }

  @Test
  void aDelayWithAWindowInTheContactsZoneWaitsForItAndItsLogShowsTheMomentAndTheZone() {
    TenantClient tenant = newTenant();
    ZoneId kiritimati = ZoneId.of("Pacific/Kiritimati");
    Map<String, Object> window = closedWindow("contact", kiritimati);
    String hook = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(hook, node("wait", "delay", Map.of("delayMinutes", 1, "window", window))));
    String ada = contact(tenant, "ada@example.com", "Pacific/Kiritimati");
    Instant fired = Instant.now();

    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", ada));

    JsonNode waiting = awaitWaiting(tenant.api(), runId, 1);
    assertThat(waiting.at("/output/zone").asString()).isEqualTo("Pacific/Kiritimati");
    assertThat(waiting.at("/output/zone_from").asString()).isEqualTo("contact");
    Instant until = Instant.parse(waiting.at("/output/until").asString());
    Instant expected = SendWindow.of(window).firstOpen(fired.plusSeconds(60), kiritimati);
    assertThat(until).isBetween(expected.minusSeconds(60), expected.plusSeconds(60));
    assertThat(until.atZone(kiritimati).toLocalTime().format(HH_MM)).isEqualTo(window.get("from"));
    assertThat(waiting.at("/output/opens").asString()).endsWith("+14:00");

    assertThat(tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of()).status())
        .isEqualTo(200);
  }

  /**
   * A contact without a zone takes the flow's (its settings, stored with the canvas version), and
   * without that the tenant's default (UTC until the admin sets one).
   */
  @Test
  void withoutTheContactsZoneTheFlowsIsUsedAndWithoutThatTheTenantsDefault() {
    TenantClient tenant = newTenant();
    String nobody = contact(tenant, "zone-less@example.com", null);
    String withFlowZone = uniqueId("hook");
    Map<String, Object> flowZoned =
        new HashMap<>(
            chain(
                withFlowZone,
                node(
                    "wait",
                    "delay",
                    Map.of(
                        "delayMinutes",
                        1,
                        "window",
                        closedWindow("contact", ZoneId.of("Asia/Kolkata"))))));
    flowZoned.put("settings", Map.of("timezone", "Asia/Kolkata"));
    String flow = activeAutomation(tenant.api(), flowZoned);
    assertThat(
            tenant
                .api()
                .get("/api/sequences/" + flow + "/canvas")
                .text("/canvas/settings/timezone"))
        .isEqualTo("Asia/Kolkata");
    String fromFlow = fire(anonymous(), tenant.id(), withFlowZone, Map.of("contact_id", nobody));
    JsonNode flowWait = awaitWaiting(tenant.api(), fromFlow, 1);
    assertThat(flowWait.at("/output/zone").asString()).isEqualTo("Asia/Kolkata");
    assertThat(flowWait.at("/output/zone_from").asString()).isEqualTo("flow");

    ApiResponse zoned =
        admin()
            .patch(
                "/admin/v1/tenants/" + tenant.id(),
                Map.of("default_timezone", "America/Sao_Paulo"));
    assertThat(zoned.status()).as(zoned.toString()).isEqualTo(200);
    assertThat(zoned.text("/tenant/default_timezone")).isEqualTo("America/Sao_Paulo");
    String withTenantZone = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            withTenantZone,
            node(
                "wait",
                "delay",
                Map.of(
                    "delayMinutes",
                    1,
                    "window",
                    closedWindow("contact", ZoneId.of("America/Sao_Paulo"))))));
    String fromTenant =
        fire(anonymous(), tenant.id(), withTenantZone, Map.of("contact_id", nobody));
    JsonNode tenantWait = awaitWaiting(tenant.api(), fromTenant, 1);
    assertThat(tenantWait.at("/output/zone").asString()).isEqualTo("America/Sao_Paulo");
    assertThat(tenantWait.at("/output/zone_from").asString()).isEqualTo("tenant");

    assertThat(
            admin()
                .patch("/admin/v1/tenants/" + tenant.id(), Map.of("default_timezone", "Mars/Base"))
                .status())
        .isEqualTo(400);
    for (String runId : List.of(fromFlow, fromTenant)) {
      tenant.api().post("/api/v1/automation-runs/" + runId + "/cancel", Map.of());
    }
  }

  @Test
  void anEmailInsideItsWindowGoesOutAtOnceAndOneOutsideItWaits() {
    TenantClient tenant = newTenant();
    ZoneId berlin = ZoneId.of("Europe/Berlin");
    LocalTime now = LocalTime.now(berlin).truncatedTo(ChronoUnit.MINUTES);
    String open = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            open,
            node(
                "mail",
                "email",
                Map.of(
                    "subject",
                    "Inside",
                    "window",
                    window(now.minusMinutes(30), now.plusMinutes(30), "Europe/Berlin")))));
    String closed = uniqueId("hook");
    activeAutomation(
        tenant.api(),
        chain(
            closed,
            node(
                "mail",
                "email",
                Map.of("subject", "Outside", "window", closedWindow("Europe/Berlin", berlin)))));
    String ada = contact(tenant, "ada@example.com", "Asia/Tokyo");

    String sent = fire(anonymous(), tenant.id(), open, Map.of("contact_id", ada));
    JsonNode run = awaitRun(tenant.api(), sent);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    assertThat(run.at("/node_log/1/output/subject").asString()).isEqualTo("Inside");
    assertThat(run.at("/node_log/1/output/window/zone").asString()).isEqualTo("Europe/Berlin");
    assertThat(run.at("/node_log/1/output/window/zone_from").asString()).isEqualTo("node");

    String waiting = fire(anonymous(), tenant.id(), closed, Map.of("contact_id", ada));
    JsonNode entry = awaitWaiting(tenant.api(), waiting, 1);
    assertThat(entry.at("/output/zone").asString()).isEqualTo("Europe/Berlin");
    assertThat(Instant.parse(entry.at("/output/until").asString()))
        .isAfter(Instant.now().plus(Duration.ofHours(2)));
    assertThat(
            tenant
                .api()
                .get("/api/v1/outbound-emails?run_id=" + waiting)
                .at("/outbound_emails")
                .size())
        .as("nothing sent before the window")
        .isZero();
    tenant.api().post("/api/v1/automation-runs/" + waiting + "/cancel", Map.of());
    JsonNode cancelled = awaitRun(tenant.api(), waiting);
    assertThat(cancelled.get("status").asString()).isEqualTo("cancelled");
    assertThat(
            tenant
                .api()
                .get("/api/v1/outbound-emails?run_id=" + waiting)
                .at("/outbound_emails")
                .size())
        .isZero();
  }

  @Test
  void windowsAndSettingsAreCheckedAndAContactsZoneNeedsContactsRead() {
    TenantClient tenant = newTenant();
    String sequence = automation(tenant.api(), "Windows");
    ApiResponse badWindow =
        tenant
            .api()
            .put(
                "/api/sequences/" + sequence + "/canvas",
                chain(
                    uniqueId("hook"),
                    node(
                        "wait",
                        "delay",
                        Map.of(
                            "window",
                            Map.of(
                                "days",
                                List.of(8),
                                "from",
                                "09:00",
                                "to",
                                "17:00",
                                "timezone",
                                "contact")))));
    assertThat(badWindow.status()).isEqualTo(400);
    assertThat(badWindow.rawBody())
        .contains("nodes.wait.data.config.window")
        .contains("needs days from 1 (Monday) to 7 (Sunday); found 8");
    Map<String, Object> badSettings =
        new HashMap<>(chain(uniqueId("hook"), node("wait", "delay", Map.of("delayDays", 1))));
    badSettings.put("settings", Map.of("timezone", "Nowhere", "colour", "blue"));
    ApiResponse refused = tenant.api().put("/api/sequences/" + sequence + "/canvas", badSettings);
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.rawBody()).contains("settings.timezone").contains("settings.colour");

    // a window of no duration but a window is a complete delay; in the contact's zone it reads the
    // contact
    ApiClient narrow = keyFor(tenant.id(), List.of("sequences:read", "sequences:write"), null);
    String other = automation(narrow, "Narrow");
    assertThat(
            narrow
                .put(
                    "/api/sequences/" + other + "/canvas",
                    chain(
                        uniqueId("hook"),
                        node(
                            "wait",
                            "delay",
                            Map.of("window", closedWindow("contact", ZoneId.of("UTC"))))))
                .status())
        .isEqualTo(200);
    ApiResponse forbidden = narrow.patch("/api/v1/sequences/" + other, Map.of("status", "active"));
    assertThat(forbidden.status()).isEqualTo(403);
    assertThat(forbidden.rawBody()).contains("contacts:read");
  }
}
