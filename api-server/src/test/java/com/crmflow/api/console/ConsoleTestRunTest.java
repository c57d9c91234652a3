package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.http;
import static com.crmflow.api.support.Flows.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.SequenceSupport;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import tools.jackson.databind.JsonNode;

/**
 * A test run from the editor, in headless Chromium against this running service: the dialog picks a
 * contact by name and takes a sample payload, and the run view shows the run, labelled as a test
 * that sent nothing. Screenshots go to target/console (testrun-*.png).
 */
class ConsoleTestRunTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "testrun";
  }

  @Test
  void aTestRunFromTheEditorShowsWhatTheFlowWouldDoAndSendsNothing() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          peer.answer("/hook", 200, "{}");
          String contactId =
              tenant
                  .api()
                  .post(
                      "/api/v1/contacts",
                      Map.of(
                          "email", "ada.lovelace@example.com",
                          "first_name", "Ada",
                          "last_name", "Lovelace"))
                  .text("/contact/id");
          String seq = SequenceSupport.automation(tenant.api(), "Welcome");
          ApiResponse saved =
              tenant
                  .api()
                  .put(
                      "/api/sequences/" + seq + "/canvas",
                      chain(
                          SequenceSupport.uniqueId("hook"),
                          labelled(
                              "mail",
                              "email",
                              "Welcome mail",
                              Map.of(
                                  "subject",
                                  "Hi {{contact.first_name}}",
                                  "body",
                                  "Plan {{trigger.plan}}"),
                              0,
                              160),
                          labelled(
                              "call",
                              "http_request",
                              "Tell the CRM",
                              http(
                                  "POST",
                                  peer.url("/hook"),
                                  "bodyTemplate",
                                  "{\"plan\": \"{{trigger.plan}}\"}"),
                              0,
                              320)));
          assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
          page.signIn(tenant.key());
          page.go("/sequences/" + seq + "/canvas");
          wait.until(d -> page.nodeIds().size() == 3);

          // the whole flow, for Ada, with a sample payload
          page.click(By.xpath("//button[text()='Test run']"));
          wait.until(
              ExpectedConditions.visibilityOfElementLocated(
                  By.cssSelector("[role=dialog][aria-labelledby='test-run-title']")));
          assertThat(browser.findElements(By.xpath("//label[contains(., 'Only this node')]")))
              .as("no node selected")
              .isEmpty();
          page.type(By.xpath("//label[contains(., 'Contact')]/input"), "Lovelace");
          page.click(By.xpath("//button[text()='Ada Lovelace · ada.lovelace@example.com']"));
          page.type(
              By.xpath("//label[contains(., 'Sample payload')]/textarea"), "{\"plan\": \"pro\"}");
          assertThat(page.seriousAccessibilityViolations()).isEmpty();
          page.screenshot("dialog");
          page.click(By.xpath("//button[text()='Start test run']"));

          wait.until(ExpectedConditions.urlMatches("/runs/[0-9a-f-]{36}$"));
          page.awaitReady();
          assertThat(page.text(By.cssSelector(".test-run-label")))
              .isEqualTo("Test run: nothing was sent");
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("[data-run-status='completed']")));
          page.screenshot("run");
          String url = browser.getCurrentUrl();
          String runId = url.substring(url.lastIndexOf('/') + 1);
          JsonNode run = tenant.api().get("/api/v1/automation-runs/" + runId).at("/run");
          assertThat(run.get("test").asBoolean()).isTrue();
          assertThat(run.at("/trigger_payload/contact_id").asString()).isEqualTo(contactId);
          assertThat(run.at("/node_log/1/output/subject").asString()).isEqualTo("Hi Ada");
          assertThat(run.at("/node_log/2/output/body").asString()).isEqualTo("{\"plan\": \"pro\"}");
          assertThat(peer.received()).isEmpty();
          assertThat(
                  tenant.api().get("/api/v1/outbound-emails?run_id=" + runId).at("/total").asInt())
              .isZero();

          // one node alone: the selected one
          page.go("/sequences/" + seq + "/canvas");
          wait.until(d -> page.nodeIds().size() == 3);
          page.selectNode("call");
          page.click(By.xpath("//button[text()='Test run']"));
          page.type(By.xpath("//label[contains(., 'Contact')]/input"), "ada.lovelace");
          page.click(By.xpath("//button[text()='Ada Lovelace · ada.lovelace@example.com']"));
          page.click(By.xpath("//label[contains(., 'Only this node: Tell the CRM')]/input"));
          page.click(By.xpath("//button[text()='Start test run']"));
          wait.until(ExpectedConditions.urlMatches("/runs/[0-9a-f-]{36}$"));
          page.awaitReady();
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("[data-run-status='completed']")));
          String alone = browser.getCurrentUrl();
          JsonNode nodeRun =
              tenant
                  .api()
                  .get("/api/v1/automation-runs/" + alone.substring(alone.lastIndexOf('/') + 1))
                  .at("/run");
          assertThat(nodeRun.get("node_log").valueStream().map(e -> e.get("nodeId").asString()))
              .containsExactly("call");
          assertThat(peer.received()).isEmpty();
          assertThat(page.text(By.cssSelector(".test-run-label")))
              .isEqualTo("Test run: nothing was sent");
        });
  }
}
