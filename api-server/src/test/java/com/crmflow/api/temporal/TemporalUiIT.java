package com.crmflow.api.temporal;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.awaitRun;
import static com.crmflow.api.support.SequenceSupport.fire;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiServerProcess;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Browsers;
import com.crmflow.api.support.Patience;
import com.crmflow.api.support.WorkerProcess;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * What an operator does in the Temporal UI of the running service (embedded defaults, headless
 * Chromium): filter the workflows by tenant, find a finished run's workflow and read its summary.
 * Screenshots of both pages are kept under {@code target/temporal-ui/}.
 */
class TemporalUiIT {

  private static final Path SCREENSHOTS = Path.of("target", "temporal-ui");

  private ApiServerProcess service;
  private WebDriver browser;
  private int uiPort;

  @BeforeEach
  void start() throws Exception {
    Path dataDir = Files.createTempDirectory(Path.of("target"), "temporal-ui-");
    uiPort = WorkerProcess.freePort();
    service =
        ApiServerProcess.start(
                dataDir,
                "--crm.embedded.temporal-port=0",
                "--crm.embedded.temporal-ui-port=" + uiPort)
            .awaitReady();
    browser = Browsers.headlessChromium();
    Files.createDirectories(SCREENSHOTS);
  }

  @AfterEach
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    service.close();
  }

  @Test
  void anOperatorFindsATenantsFinishedRunByItsTenantAndReadsItsSummary() throws Exception {
    ApiTest.TenantClient tenant = service.newTenant();
    ApiTest.TenantClient other = service.newTenant();
    String runId = finishedRun(tenant, "Welcome flow");
    String otherRunId = finishedRun(other, "Other tenant's flow");

    String query = "CrmTenantId=\"" + tenant.id() + "\"";
    browser.get(
        "http://127.0.0.1:"
            + uiPort
            + "/namespaces/default/workflows?query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8));
    WebDriverWait wait = new WebDriverWait(browser, Patience.EVENTUALLY);
    By runLink = By.partialLinkText("run-" + runId);
    wait.until(ExpectedConditions.visibilityOfElementLocated(runLink));
    screenshot("workflows-of-tenant.png");
    String list = browser.findElement(By.tagName("body")).getText();
    assertThat(list).contains("run-" + runId).contains("AutomationRunWorkflow");
    assertThat(list).as("the other tenant's run is filtered out").doesNotContain(otherRunId);

    browser.findElement(runLink).click();
    String summary = "Automation \"Welcome flow\" · New lead · run " + runId;
    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), summary));
    String page = browser.findElement(By.tagName("body")).getText();
    assertThat(page).contains(summary).contains("Completed");
    // the tab that shows the summary and details on their own (rendered in frames of their own)
    browser.findElement(By.xpath("//*[normalize-space(text())='User Metadata']")).click();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("iframe")));
    screenshot("finished-run.png");
  }

  /** A run of a new automation (webhook "New lead" → a second's delay), once it completed. */
  private String finishedRun(ApiTest.TenantClient tenant, String name) {
    Map<String, Object> trigger = new LinkedHashMap<>(node("hook", "webhook_trigger", Map.of()));
    trigger.put("data", Map.of("label", "New lead", "config", Map.of()));
    activeAutomation(
        tenant.api(),
        name,
        canvas(
            List.of(trigger, node("wait", "delay", Map.of("delayHours", 1.0 / 3600))),
            List.of(edge("e1", "hook", "wait"))));
    String runId = fire(service.anonymous(), tenant.id(), "hook", Map.of("lead", name));
    JsonNode run = awaitRun(tenant.api(), runId);
    assertThat(run.get("status").asString()).as(run.toString()).isEqualTo("completed");
    return runId;
  }

  private void screenshot(String name) throws Exception {
    Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
    Files.move(shot, SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
  }
}
