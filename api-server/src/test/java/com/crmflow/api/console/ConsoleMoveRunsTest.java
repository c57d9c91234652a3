package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.ReleaseGate;
import java.util.Map;
import java.util.function.Function;
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

  /** An active flow webhook → wait → mail, and a run of it. */
  private record FlowWithARun(TenantClient tenant, String seq, String runId, String contactId) {

    JsonNode run() {
      return tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
    }

    /** Returns once the run's value at {@code pointer} is {@code expected}. */
    void awaitRun(String pointer, String expected) {
      org.awaitility.Awaitility.await()
          .atMost(Patience.EVENTUALLY)
          .until(() -> run().at(pointer).asString(""), expected::equals);
    }
  }

  private FlowWithARun flowWithARun(double delayMinutes) {
    return flowWithARun(
        hook ->
            chain(
                hook,
                node("wait", "delay", Map.of("delayMinutes", delayMinutes)),
                node("mail", "email", Map.of("subject", "Hi", "body", "Hello"))));
  }

  /** An active flow webhook → a gate the test opens ({@link ReleaseGate}) → mail, and a run. */
  private FlowWithARun flowWithARunAtAGate() {
    return flowWithARun(
        hook ->
            ReleaseGate.chain(
                hook, node("mail", "email", Map.of("subject", "Hi", "body", "Hello"))));
  }

  private FlowWithARun flowWithARun(Function<String, Map<String, Object>> canvasOfHook) {
    TenantClient tenant = newTenant("*");
    String contactId =
        tenant
            .api()
            .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
            .text("/contact/id");
    String hook = uniqueId("hook");
    String seq = activeAutomation(tenant.api(), canvasOfHook.apply(hook));
    String runId = fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId));
    return new FlowWithARun(tenant, seq, runId, contactId);
  }

  /** Saves the canvas as version 2 and waits for the offer, which shows {@code plan}. */
  private void saveAndAwaitTheOffer(String plan) {
    page.click(By.xpath("//button[text()='Tidy up']"));
    page.click(By.xpath("//button[text()='Save']"));
    page.waitForStatus("Saved as version 2.");
    wait.until(d -> page.text(By.id("move-title")).equals("1 run waits in older versions"));
    assertThat(page.text(By.cssSelector("ul.move-plan"))).isEqualTo(plan);
  }

  private void moveAndAwaitTheReport() {
    page.click(By.xpath("//button[text()='Move 1 run to version 2']"));
    wait.withTimeout(Patience.EVENTUALLY)
        .until(
            d ->
                page.text(By.cssSelector(".move-report"))
                    .equals("Move completed: 1 run moved, 0 skipped."));
  }

  @Test
  void savingAnActiveFlowOffersToMoveItsWaitingRunsAndReportsTheMove() throws Exception {
    page.guarded(
        () -> {
          FlowWithARun flow = flowWithARun(30);
          flow.awaitRun("/node_log/1/status", "running");
          openCanvas(flow.tenant(), flow.seq(), 3);

          saveAndAwaitTheOffer("Version 1, wait: 1 run → wait");
          page.screenshot("offer");
          moveAndAwaitTheReport();
          page.screenshot("moved");

          assertThat(flow.run().get("canvas_version").asInt()).isEqualTo(2);
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
          assertThat(flow.run().get("canvas_version").asInt()).isEqualTo(2);
        });
  }

  @Test
  void savingAPausedFlowOffersToMoveItsHeldRunsWhichHoldOnInTheNewVersion() throws Exception {
    page.guarded(
        () -> {
          FlowWithARun flow = flowWithARunAtAGate();
          ReleaseGate.awaitWaiting(jdbc, flow.runId());
          ApiResponse paused =
              flow.tenant()
                  .api()
                  .patch(
                      "/api/v1/sequences/" + flow.seq(),
                      Map.of("status", "paused", "in_flight", "hold"));
          assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
          ReleaseGate.openAfterAsks(jdbc, flow.tenant().api(), flow.seq(), flow.contactId());
          // its wait over, the run holds before the email
          flow.awaitRun("/node_log/2/output/held", "flow paused");
          openCanvas(flow.tenant(), flow.seq(), 3);

          saveAndAwaitTheOffer("Version 1, mail: 1 run → mail");
          page.screenshot("held-offer");
          moveAndAwaitTheReport();

          JsonNode moved = flow.run();
          assertThat(moved.get("canvas_version").asInt()).isEqualTo(2);
          assertThat(moved.get("status").asString()).isEqualTo("running");
          assertThat(moved.at("/node_log/2/output/held").asString()).isEqualTo("flow paused");
        });
  }
}
