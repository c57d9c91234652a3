package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.Patience;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;

/**
 * Pausing a flow from its editor asks what becomes of its runs in progress, with their number, and
 * does what was chosen: here two runs waiting in a day's delay are ended, cancelled with the
 * reason, and send nothing. Screenshots go to target/console (in-flight-*.png).
 */
class ConsoleRunsInProgressTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "in-flight";
  }

  @Test
  void pausingFromTheEditorAsksWhatBecomesOfTheRunsInProgressAndEndsThemWhenToldTo()
      throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String contactId =
              tenant
                  .api()
                  .post("/api/v1/contacts", Map.of("email", "ada@example.com"))
                  .text("/contact/id");
          String hook = uniqueId("hook");
          String seq =
              activeAutomation(
                  tenant.api(),
                  chain(
                      hook,
                      node("wait", "delay", Map.of("delayDays", 1)),
                      node("mail", "email", Map.of("subject", "Later", "body", "Hi"))));
          List<String> runs =
              List.of(
                  fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId)),
                  fire(anonymous(), tenant.id(), hook, Map.of("contact_id", contactId)));
          await()
              .atMost(Patience.EVENTUALLY)
              .until(
                  () ->
                      tenant
                              .api()
                              .get(
                                  "/api/v1/automation-runs?status=running&limit=1&sequence_id="
                                      + seq)
                              .at("/total")
                              .asInt()
                          == 2);

          openCanvas(tenant, seq, 3);
          page.click(By.xpath("//div[@class='toolbar']//button[text()='Pause']"));
          WebElement dialog =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=dialog]")));
          assertThat(dialog.getText())
              .contains("Its 2 runs in progress:")
              .contains("Let them finish", "Hold them", "End them now");
          assertThat(
                  dialog
                      .findElement(By.cssSelector("input[type=radio][value=continue]"))
                      .isSelected())
              .isTrue();
          page.click(By.cssSelector("[role=dialog] input[type=radio][value=end]"));
          page.screenshot("ending");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Pause']"));
          page.waitForStatus("Paused.");

          assertThat(tenant.api().get("/api/v1/sequences/" + seq).text("/sequence/status"))
              .isEqualTo("paused");
          for (String runId : runs) {
            JsonNode run = awaitRun(tenant.api(), runId);
            assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("cancelled");
            assertThat(run.get("error").asString()).isEqualTo("flow paused");
            assertThat(
                    tenant
                        .api()
                        .get("/api/v1/outbound-emails?run_id=" + runId)
                        .at("/total")
                        .asInt())
                .isZero();
          }
        });
  }
}
