package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The lists a designer works from, in headless Chromium against this running service: flows found
 * by name with their trigger and last run, the filters kept in the address; renamed in place,
 * duplicated, archived and deleted after saying what becomes of their runs; an empty tenant offered
 * a first flow; runs listed by contact name with their branch and duration; pause, cancel and retry
 * asking first; a run's errors naming nodes by label and staying with their run. axe-core checks
 * the list and the run view. Screenshots go to target/console (lists-*.png).
 */
class ConsoleListsTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "lists";
  }

  @Test
  void flowsAreFoundByNameWithTheirTriggerAndLastRunAndTheFiltersStayInTheAddress()
      throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String hook = SequenceSupport.uniqueId("hook");
          SequenceSupport.activeAutomation(tenant.api(), "Lead nurture", waitThenCall(hook));
          SequenceSupport.automation(tenant.api(), "Lead scoring");
          SequenceSupport.automation(tenant.api(), "Welcome series");
          SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
          page.signIn(tenant.key());
          wait.until(d -> flowNames().size() == 3);

          page.type(By.id("search"), "lead");
          wait.until(d -> flowNames().equals(List.of("Lead scoring", "Lead nurture")));
          wait.until(d -> d.getCurrentUrl().endsWith("#/sequences?q=lead"));
          new Select(browser.findElement(By.id("filter-status"))).selectByValue("active");
          wait.until(d -> flowNames().equals(List.of("Lead nurture")));
          assertThat(browser.getCurrentUrl()).endsWith("#/sequences?status=active&q=lead");

          // a reload shows the same list
          browser.navigate().refresh();
          page.awaitReady();
          wait.until(d -> flowNames().equals(List.of("Lead nurture")));
          assertThat(browser.findElement(By.id("search")).getAttribute("value")).isEqualTo("lead");
          WebElement row = row("Lead nurture");
          assertThat(row.findElements(By.tagName("td")).get(2).getText())
              .isEqualTo("Webhook trigger");
          assertThat(row.findElement(By.cssSelector(".last-run")).getText())
              .matches("(just now|\\d+ min ago) · running");
          page.screenshot("found");
          assertThat(page.seriousAccessibilityViolations()).as("axe on the list").isEmpty();
        });
  }

  @Test
  void aFlowIsRenamedInPlaceDuplicatedArchivedAndDeletedSayingWhatBecomesOfItsRuns()
      throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String mistake = SequenceSupport.automation(tenant.api(), "Mistake");
          String hook = SequenceSupport.uniqueId("hook");
          String busy = SequenceSupport.activeAutomation(tenant.api(), "Busy", waitThenCall(hook));
          SequenceSupport.fire(anonymous(), tenant.id(), hook, Map.of());
          page.signIn(tenant.key());
          wait.until(d -> flowNames().size() == 2);

          // renamed in place
          more("Mistake", "Rename");
          WebElement field =
              wait.until(
                  ExpectedConditions.elementToBeClickable(
                      By.cssSelector("input[aria-label='New name of Mistake']")));
          // the field comes with the name selected: what is typed replaces it
          field.sendKeys("Mistake fixed\n");
          wait.until(d -> flowNames().contains("Mistake fixed"));
          assertThat(tenant.api().get("/api/v1/sequences/" + mistake).text("/sequence/name"))
              .isEqualTo("Mistake fixed");

          // pausing asks what becomes of the run in progress: finish (chosen at first), hold, end
          page.click(By.xpath("//tr[@data-flow='Busy']//button[text()='Pause']"));
          WebElement dialog = dialog();
          assertThat(dialog.getText())
              .contains("Pause “Busy”?")
              .contains("It has 1 run, 1 of them in progress.")
              .contains("Its 1 run in progress:")
              .contains("Let them finish", "Hold them", "End them now");
          assertThat(
                  dialog
                      .findElement(By.cssSelector("input[type=radio][value=continue]"))
                      .isSelected())
              .isTrue();
          page.click(By.xpath("//div[@role='dialog']//button[text()='Cancel']"));
          wait.until(d -> d.findElements(By.cssSelector("[role=dialog]")).isEmpty());
          assertThat(tenant.api().get("/api/v1/sequences/" + busy).text("/sequence/status"))
              .isEqualTo("active");

          // duplicated: a draft copy
          more("Busy", "Duplicate");
          page.waitForStatus("Duplicated as “Busy (copy)”, a draft.");
          wait.until(d -> flowNames().contains("Busy (copy)"));

          // a flow with runs is not deleted: it is archived instead, its runs kept
          more("Busy", "Delete…");
          dialog = dialog();
          assertThat(dialog.getText())
              .contains("“Busy” cannot be deleted")
              .contains("It has 1 run, 1 of them in progress.")
              .contains("It is active: pause or archive it first.");
          page.screenshot("delete-question");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Archive instead']"));
          wait.until(
              d ->
                  tenant
                      .api()
                      .get("/api/v1/sequences/" + busy)
                      .text("/sequence/status")
                      .equals("archived"));
          assertThat(
                  tenant
                      .api()
                      .get("/api/v1/automation-runs?sequence_id=" + busy)
                      .at("/total")
                      .asInt())
              .isEqualTo(1);

          // a flow that never ran is deleted, after saying so
          more("Mistake fixed", "Delete…");
          dialog = dialog();
          assertThat(dialog.getText()).contains("Delete “Mistake fixed”?").contains("never run");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Delete']"));
          wait.until(d -> !flowNames().contains("Mistake fixed"));
          assertThat(tenant.api().get("/api/v1/sequences/" + mistake).status()).isEqualTo(404);
        });
  }

  @Test
  void anEmptyListOffersANewFlowAndGenerate() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          page.signIn(tenant.key());
          WebElement empty =
              wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".empty")));
          assertThat(empty.getText()).contains("No flows yet");
          assertThat(empty.findElements(By.tagName("button")))
              .extracting(WebElement::getText)
              .containsExactly("New flow", "Generate");
          page.screenshot("empty");
          page.clickThrough(By.xpath("//div[@class='empty']//button[text()='Generate']"));
          assertThat(browser.getCurrentUrl()).contains("/canvas?generate");
          wait.until(d -> "prompt".equals(d.switchTo().activeElement().getAttribute("id")));
        });
  }

  @Test
  void runsShowTheirContactBranchAndDurationAndRiskyRunActionsAsk() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String ada =
              tenant
                  .api()
                  .post(
                      "/api/v1/contacts",
                      Map.of(
                          "email", "ada@example.com", "first_name", "Ada", "last_name", "Lovelace"))
                  .text("/contact/id");
          String router =
              SequenceSupport.activeAutomation(
                  tenant.api(),
                  "Router",
                  canvas(
                      List.of(
                          labelled("hook-r", "webhook_trigger", "Signup", Map.of(), 150, 0),
                          labelled(
                              "plan",
                              "condition",
                              "Is it pro?",
                              Map.of(
                                  "field",
                                  "{{trigger.plan}}",
                                  "operator",
                                  "equals",
                                  "value",
                                  "pro"),
                              150,
                              150),
                          labelled("pro", "http_request", "Call pro", post("/pro"), 0, 300),
                          labelled("free", "http_request", "Call free", post("/free"), 300, 300)),
                      List.of(
                          edge("e1", "hook-r", "plan"),
                          edge("e2", "plan", "pro", "true"),
                          edge("e3", "plan", "free", "false"))));
          String routed =
              SequenceSupport.fire(
                  anonymous(), tenant.id(), "hook-r", Map.of("plan", "pro", "contact_id", ada));
          SequenceSupport.awaitRun(tenant.api(), routed);
          page.signIn(tenant.key());

          // the run list at 1024×768: names, branch and duration, no sideways scroll
          browser.manage().window().setSize(new Dimension(1024, 768));
          page.go("/sequences/" + router + "/runs");
          WebElement row =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(
                      By.xpath("//a[text()='" + routed.substring(0, 8) + "']/ancestor::tr")));
          wait.until(
              d ->
                  row.findElement(By.cssSelector(".run-contact")).getText().equals("Ada Lovelace"));
          wait.until(
              d ->
                  row.findElement(By.cssSelector(".run-branch"))
                      .getText()
                      .equals("Is it pro? → true"));
          assertThat(row.findElement(By.cssSelector(".run-duration")).getText())
              .matches("\\d+ (ms|s)|\\d+ min.*");
          assertThat(pageOverflowX())
              .as("the page does not scroll sideways")
              .isLessThanOrEqualTo(0L);
          page.screenshot("runs-1024");
          browser.manage().window().setSize(new Dimension(1440, 900));

          // a run waiting on its delay: cancelling asks; the node it never reached is said so
          String dripHook = SequenceSupport.uniqueId("drip");
          String drip =
              SequenceSupport.activeAutomation(
                  tenant.api(),
                  "Drip",
                  canvas(
                      List.of(
                          labelled(dripHook, "webhook_trigger", "Start", Map.of(), 0, 0),
                          labelled("wait", "delay", "Wait a day", Map.of("delayDays", 1), 0, 150),
                          labelled("mail", "email", "Follow up", Map.of("subject", "Hi"), 0, 300)),
                      List.of(edge("e1", dripHook, "wait"), edge("e2", "wait", "mail"))));
          String waiting =
              SequenceSupport.fire(anonymous(), tenant.id(), dripHook, Map.of("contact_id", ada));
          SequenceSupport.awaitNodeLog(tenant.api(), waiting, 2);
          page.go("/sequences/" + drip + "/runs/" + waiting);
          page.click(By.xpath("//button[text()='Cancel']"));
          WebElement dialog = dialog();
          assertThat(dialog.getText()).contains("Cancel run").contains("It stops where it is");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Cancel the run']"));
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("[data-run-status=cancelled]")));
          wait.until(
              d ->
                  d.findElement(By.cssSelector(".react-flow__node[data-id='mail'] .node-status"))
                      .getText()
                      .equals("not reached: the run was cancelled"));
          assertThat(page.seriousAccessibilityViolations()).as("axe on the run view").isEmpty();

          // a failed run names its node by label; retrying asks; its refusal stays with it
          peer.answer("/boom", 500, "{\"error\": \"down\"}");
          String failHook = SequenceSupport.uniqueId("fail");
          String failing = SequenceSupport.automation(tenant.api(), "Fragile");
          Map<String, Object> fragile =
              canvas(
                  List.of(
                      labelled(failHook, "webhook_trigger", "Start", Map.of(), 0, 0),
                      labelled(
                          "crm-update-mx0snzp810",
                          "http_request",
                          "Notify the CRM",
                          post("/boom"),
                          0,
                          150)),
                  List.of(edge("e1", failHook, "crm-update-mx0snzp810")));
          for (int version = 1; version <= 3; version++) {
            ApiResponse saved = tenant.api().put("/api/sequences/" + failing + "/canvas", fragile);
            assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
          }
          tenant.api().patch("/api/v1/sequences/" + failing, Map.of("status", "active"));
          String failed = SequenceSupport.fire(anonymous(), tenant.id(), failHook, Map.of());
          SequenceSupport.awaitRun(tenant.api(), failed);
          tenant.api().patch("/api/v1/sequences/" + failing, Map.of("status", "paused"));
          page.go("/sequences/" + failing + "/runs/" + failed);
          WebElement error =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".run-error")));
          wait.until(d -> error.getText().startsWith("“Notify the CRM” failed"));
          assertThat(error.getText()).doesNotContain("crm-update-mx0snzp810");
          page.click(By.xpath("//button[text()='Retry from the failed node']"));
          assertThat(dialog().getText()).contains("A new run starts");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Retry']"));
          wait.until(
              d ->
                  d.findElements(By.cssSelector("[role=alert]")).stream()
                      .anyMatch(a -> a.getText().contains("paused")));

          // by address to a run of another flow (version 1 after version 3): its own canvas, no
          // error of the other run
          page.go("/sequences/" + router + "/runs/" + routed);
          wait.until(d -> page.nodeIds().containsAll(List.of("plan", "pro", "free")));
          assertThat(browser.findElements(By.cssSelector("[role=alert]")))
              .extracting(WebElement::getText)
              .noneMatch(t -> t.contains("paused") || t.contains("not found"));
          page.go("/sequences/" + drip + "/runs/" + waiting);
          wait.until(d -> page.nodeIds().containsAll(List.of("wait", "mail")));
          assertThat(browser.findElements(By.cssSelector("[role=alert]")))
              .extracting(WebElement::getText)
              .noneMatch(t -> t.contains("paused") || t.contains("not found"));
        });
  }

  // ---------------------------------------------------------------- helpers

  private Map<String, Object> post(String path) {
    return Map.of("method", "POST", "url", peer.url(path));
  }

  /** hook → wait a day → call: its runs wait on the delay. */
  private Map<String, Object> waitThenCall(String hook) {
    return canvas(
        List.of(
            labelled(hook, "webhook_trigger", "Signup", Map.of(), 0, 0),
            labelled("wait", "delay", "Wait a day", Map.of("delayDays", 1), 0, 150),
            labelled("later", "http_request", "Call later", post("/later"), 0, 300)),
        List.of(edge("e1", hook, "wait"), edge("e2", "wait", "later")));
  }

  private WebElement dialog() {
    return wait.until(
        ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=dialog]")));
  }

  private WebElement row(String name) {
    return browser.findElement(By.cssSelector("tr[data-flow='" + name + "']"));
  }

  /** Opens a flow's ⋯ menu and picks an entry. */
  private void more(String flow, String entry) {
    page.click(By.cssSelector("button[aria-label='More actions for " + flow + "']"));
    page.click(By.xpath("//div[@role='menu']//button[text()='" + entry + "']"));
  }

  private long pageOverflowX() {
    return (Long)
        browser.executeScript(
            "return Math.max(document.documentElement.scrollWidth - window.innerWidth,"
                + " ...[...document.querySelectorAll('.table-wrap')]"
                + ".map(t => t.scrollWidth - t.clientWidth));");
  }
}
