package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.Patience;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;

/**
 * After a save or a restore of an active or paused flow, the editor offers to move the runs that
 * wait (or hold for the pause) in older versions: it shows where they wait (the dry run), moves
 * them, and reports the move, or leaves them. Screenshots go to target/console (moves-*.png).
 */
class ConsoleMoveRunsTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "moves";
  }

  @Test
  void savingAnActiveFlowOffersToMoveItsWaitingRunsAndReportsTheMove() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String contactId =
              tenant
                  .api()
                  .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
                  .text("/contact/id");
          String hook = uniqueId("hook");
          String seq =
              activeAutomation(
                  tenant.api(),
                  chain(
                      hook,
                      node("wait", "delay", Map.of("delayMinutes", 30)),
                      node("mail", "email", Map.of("subject", "Hi", "body", "Hello"))));
          String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
          org.awaitility.Awaitility.await()
              .atMost(Patience.EVENTUALLY)
              .until(
                  () ->
                      tenant
                          .api()
                          .get("/api/v1/automation-runs/" + runId)
                          .at("/run/node_log/1/status")
                          .asString(),
                  "running"::equals);
          openCanvas(tenant, seq, 3);

          page.click(By.xpath("//button[text()='Tidy up']"));
          page.click(By.xpath("//button[text()='Save']"));
          page.waitForStatus("Saved as version 2.");
          wait.until(d -> page.text(By.id("move-title")).equals("1 run waits in older versions"));
          assertThat(page.text(By.cssSelector("ul.move-plan")))
              .isEqualTo("Version 1, wait: 1 run → wait");
          page.screenshot("offer");
          page.click(By.xpath("//button[text()='Move 1 run to version 2']"));
          wait.withTimeout(Patience.EVENTUALLY)
              .until(
                  d ->
                      page.text(By.cssSelector(".move-report"))
                          .equals("Move completed: 1 run moved, 0 skipped."));
          page.screenshot("moved");

          assertThat(
                  tenant
                      .api()
                      .get("/api/v1/automation-runs/" + runId)
                      .at("/run/canvas_version")
                      .asInt())
              .isEqualTo(2);
          page.click(By.xpath("//button[text()='Close']"));
          wait.until(d -> d.findElements(By.id("move-title")).isEmpty());

          // a restore makes a new version too: the move to it is offered, and may be left
          page.click(
              By.xpath("//ul[@class='versions']/li[starts-with(normalize-space(.), 'v1')]/button"));
          page.click(By.xpath("//div[@role='dialog']//button[text()='Replace']"));
          page.waitForStatus("Version 1 restored as a new version.");
          wait.until(d -> page.text(By.id("move-title")).equals("1 run waits in older versions"));
          assertThat(page.text(By.cssSelector("ul.move-plan")))
              .isEqualTo("Version 2, wait: 1 run → wait");
          page.click(By.xpath("//button[text()='Leave them']"));
          wait.until(d -> d.findElements(By.id("move-title")).isEmpty());
          assertThat(
                  tenant
                      .api()
                      .get("/api/v1/automation-runs/" + runId)
                      .at("/run/canvas_version")
                      .asInt())
              .isEqualTo(2);
        });
  }

  @Test
  void savingAPausedFlowOffersToMoveItsHeldRunsWhichHoldOnInTheNewVersion() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String contactId =
              tenant
                  .api()
                  .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
                  .text("/contact/id");
          String hook = uniqueId("hook");
          String seq =
              activeAutomation(
                  tenant.api(),
                  chain(
                      hook,
                      node("wait", "delay", Map.of("delayMinutes", 0.05)),
                      node("mail", "email", Map.of("subject", "Hi", "body", "Hello"))));
          String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
          ApiResponse paused =
              tenant
                  .api()
                  .patch(
                      "/api/v1/sequences/" + seq, Map.of("status", "paused", "in_flight", "hold"));
          assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
          // its delay over, the run holds before the email
          org.awaitility.Awaitility.await()
              .atMost(Patience.EVENTUALLY)
              .until(
                  () ->
                      tenant
                          .api()
                          .get("/api/v1/automation-runs/" + runId)
                          .at("/run/node_log/2/output/held")
                          .asString(""),
                  "flow paused"::equals);
          openCanvas(tenant, seq, 3);

          page.click(By.xpath("//button[text()='Tidy up']"));
          page.click(By.xpath("//button[text()='Save']"));
          page.waitForStatus("Saved as version 2.");
          wait.until(d -> page.text(By.id("move-title")).equals("1 run waits in older versions"));
          assertThat(page.text(By.cssSelector("ul.move-plan")))
              .isEqualTo("Version 1, mail: 1 run → mail");
          page.screenshot("held-offer");
          page.click(By.xpath("//button[text()='Move 1 run to version 2']"));
          wait.withTimeout(Patience.EVENTUALLY)
              .until(
                  d ->
                      page.text(By.cssSelector(".move-report"))
                          .equals("Move completed: 1 run moved, 0 skipped."));

          JsonNode moved = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
          assertThat(moved.get("canvas_version").asInt()).isEqualTo(2);
          assertThat(moved.get("status").asString()).isEqualTo("running");
          assertThat(moved.at("/node_log/2/output/held").asString()).isEqualTo("flow paused");
        });
  }
}
