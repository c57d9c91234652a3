package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/**
 * A flow's goal in the console, in headless Chromium against this running service: set in the
 * flow's settings (the side panel when nothing is selected), shown on the canvas as a badge that
 * opens those settings, saved with the canvas version and removed again. Screenshots go to
 * target/console (goal-*.png).
 */
class ConsoleGoalTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "goal";
  }

  private static final By BADGE = By.cssSelector(".goal-badge");

  @Test
  void theGoalIsSetInTheFlowsSettingsShownOnTheCanvasAndSavedWithTheVersion() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Nurture");
          save(
              tenant,
              seq,
              canvas(
                  List.of(
                      labelled("hook-g", "webhook_trigger", "Signed up", Map.of(), 0, 0),
                      labelled("wait", "delay", "Wait 3 days", Map.of("delayDays", 3), 0, 160),
                      labelled(
                          "mail",
                          "email",
                          "Still thinking?",
                          Map.of("subject", "Still thinking?", "body", "Hi"),
                          0,
                          320)),
                  List.of(edge("e1", "hook-g", "wait"), edge("e2", "wait", "mail"))));
          openCanvas(tenant, seq, 3);
          page.awaitReady();
          assertThat(browser.findElements(BADGE)).as("no goal, no badge").isEmpty();

          page.click(By.xpath("//aside[@aria-label='Flow settings']//button[.='Set a goal']"));
          new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("goal-field"))))
              .selectByValue("lifecycle_stage");
          new Select(browser.findElement(By.id("goal-operator"))).selectByValue("equals");
          page.type(By.id("goal-value"), "customer");
          wait.until(
              ExpectedConditions.textToBePresentInElementLocated(
                  BADGE, "Goal: lifecycle_stage equals customer"));
          assertThat(browser.findElements(By.cssSelector(".unsaved"))).isNotEmpty();
          page.screenshot("set");

          page.click(By.xpath("//button[.='Save']"));
          page.waitForStatus("Saved as version 2");
          JsonNode stored = tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas");
          assertThat(stored.at("/version").asInt()).isEqualTo(2);
          assertThat(stored.at("/goal/field").asString()).isEqualTo("{{contact.lifecycle_stage}}");
          assertThat(stored.at("/goal/operator").asString()).isEqualTo("equals");
          assertThat(stored.at("/goal/value").asString()).isEqualTo("customer");

          // opened again: the stored goal on the canvas; its badge opens the flow's settings
          page.go("/sequences/" + seq + "/canvas");
          wait.until(d -> page.nodeIds().size() == 3);
          page.awaitReady();
          assertThat(page.text(BADGE)).contains("lifecycle_stage equals customer");
          page.selectNode("wait");
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("aside[aria-label='Node settings']")));
          page.click(BADGE);
          wait.until(ExpectedConditions.attributeToBe(By.id("goal-value"), "value", "customer"));
          assertThat(page.seriousAccessibilityViolations()).as("axe on the settings").isEmpty();

          page.click(By.xpath("//aside[@aria-label='Flow settings']//button[.='Remove goal']"));
          wait.until(ExpectedConditions.numberOfElementsToBe(BADGE, 0));
          page.click(By.xpath("//button[.='Save']"));
          page.waitForStatus("Saved as version 3");
          JsonNode without = tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas");
          assertThat(without.get("goal").isNull()).as(without.toString()).isTrue();
          assertThat(
                  tenant
                      .api()
                      .get("/api/sequences/" + seq + "/versions/2")
                      .text("/canvas/goal/value"))
              .isEqualTo("customer");
        });
  }
}
