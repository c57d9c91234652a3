package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.SequenceSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;

/**
 * What a designer needs to trust the console, one test per need, in headless Chromium against this
 * running service: every flow is listed; unsaved work is marked, guarded and undoable; checks judge
 * the canvas on screen in the designer's words; the canvas helps rather than fights; risky
 * replacements ask first with a diff; the run view shows what a node read, wrote and skipped.
 * Screenshots go to target/console (designer-*.png).
 */
class ConsoleDesignerTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "designer";
  }

  // ---------------------------------------------------------------- 1. every flow findable

  @Test
  void everyFlowIsListedPagedAndFilteredWithItsStatusToggle() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          for (int i = 1; i <= 25; i++) {
            SequenceSupport.automation(tenant.api(), "Bulk " + i);
          }
          SequenceSupport.activeAutomation(tenant.api(), "Active flow", complete("hook-a"));
          String paused =
              SequenceSupport.activeAutomation(tenant.api(), "Paused flow", complete("hook-p"));
          assertThat(
                  tenant
                      .api()
                      .patch("/api/v1/sequences/" + paused, Map.of("status", "paused"))
                      .status())
              .isEqualTo(200);
          SequenceSupport.automation(tenant.api(), "Draft flow");
          page.signIn(tenant.key());

          wait.until(d -> flowNames().size() == 25);
          assertThat(flowNames()).contains("Draft flow", "Paused flow", "Active flow");
          assertThat(page.text(By.cssSelector(".paging"))).isEqualTo("1–25 of 28");
          page.screenshot("list");
          page.click(By.xpath("//button[text()='Next']"));
          wait.until(d -> flowNames().size() == 3);
          assertThat(page.text(By.cssSelector(".paging"))).isEqualTo("26–28 of 28");

          new Select(browser.findElement(By.id("filter-status"))).selectByValue("paused");
          wait.until(d -> flowNames().equals(List.of("Paused flow")));
          // the status toggle of the list: the paused flow goes active from here
          page.click(By.xpath("//tr[@data-flow='Paused flow']//button[text()='Activate']"));
          wait.until(d -> flowNames().isEmpty());
          assertThat(tenant.api().get("/api/v1/sequences/" + paused).text("/sequence/status"))
              .isEqualTo("active");
          new Select(browser.findElement(By.id("filter-status"))).selectByValue("draft");
          wait.until(d -> flowNames().size() == 25);
          assertThat(flowNames()).contains("Draft flow").doesNotContain("Paused flow");

          // the header counts a key with every scope as such, and the favicon is served
          assertThat(page.text(By.cssSelector(".who"))).endsWith("all scopes");
          HttpResponse<Void> icon =
              HttpClient.newHttpClient()
                  .send(
                      HttpRequest.newBuilder(URI.create(baseUrl() + "/console/favicon.svg"))
                          .build(),
                      HttpResponse.BodyHandlers.discarding());
          assertThat(icon.statusCode()).isEqualTo(200);
        });
  }

  // ---------------------------------------------------------------- 2. no lost work

  @Test
  void unsavedWorkIsMarkedGuardedAndUndoable() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Careful");
          save(tenant, seq, complete("hook-c"));
          openCanvas(tenant, seq, 3);
          assertThat(browser.findElements(By.cssSelector(".unsaved"))).isEmpty();

          page.click(By.cssSelector("[data-palette=delay]"));
          wait.until(d -> page.nodeIds().size() == 4);
          assertThat(page.text(By.cssSelector(".unsaved"))).contains("Unsaved");
          page.screenshot("unsaved");
          // a reload or a closed tab is asked about
          assertThat(
                  browser.executeScript(
                      "const e = new Event('beforeunload', {cancelable: true});"
                          + " window.dispatchEvent(e); return e.defaultPrevented;"))
              .isEqualTo(true);
          // leaving through a link asks; staying keeps the edits
          page.click(By.linkText("Runs"));
          wait.until(ExpectedConditions.alertIsPresent());
          assertThat(browser.switchTo().alert().getText()).contains("unsaved changes");
          browser.switchTo().alert().dismiss();
          assertThat(browser.getCurrentUrl()).endsWith("/canvas");
          assertThat(page.nodeIds()).hasSize(4);

          // undo and redo, by keyboard
          new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
          wait.until(d -> page.nodeIds().size() == 3);
          assertThat(browser.findElements(By.cssSelector(".unsaved"))).isEmpty();
          new Actions(browser)
              .keyDown(Keys.CONTROL)
              .keyDown(Keys.SHIFT)
              .sendKeys("z")
              .keyUp(Keys.SHIFT)
              .keyUp(Keys.CONTROL)
              .perform();
          wait.until(d -> page.nodeIds().size() == 4);
          new Actions(browser).keyDown(Keys.CONTROL).sendKeys("z").keyUp(Keys.CONTROL).perform();
          wait.until(d -> page.nodeIds().size() == 3);

          // with a node selected, a clicked edge and Delete remove the edge alone
          page.selectNode("hook-c");
          int edges = page.edgeCount();
          WebElement path =
              browser.findElement(
                  By.cssSelector(".react-flow__edge[data-id='e2'] .react-flow__edge-interaction"));
          new Actions(browser).moveToElement(path).click().perform();
          wait.until(d -> !d.findElements(By.cssSelector(".react-flow__edge.selected")).isEmpty());
          new Actions(browser).sendKeys(Keys.DELETE).perform();
          wait.until(d -> page.edgeCount() == edges - 1);
          assertThat(page.nodeIds()).containsExactlyInAnyOrder("hook-c", "call", "wait");
          assertThat(page.text(By.cssSelector(".unsaved"))).contains("Unsaved");
          // nothing reached the server
          assertThat(
                  tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/edges").size())
              .isEqualTo(2);
        });
  }

  // ---------------------------------------------------------------- 3. checks on the screen

  @Test
  void checksJudgeTheCanvasOnScreenInTheDesignersWords() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Words");
          save(tenant, seq, complete("webhook-trigger-mwytvmgf1"));
          openCanvas(tenant, seq, 3);

          // unsaved: an email, unconnected, without a subject
          page.click(By.cssSelector("[data-palette=email]"));
          wait.until(d -> page.nodeIds().size() == 4);
          String email = page.nodeIds().get(3);
          page.type(By.id("node-label"), "Welcome mail");
          page.click(By.xpath("//button[text()='Validate']"));
          page.waitForStatus("The flow is not complete yet");
          WebElement card =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(
                      By.cssSelector(".react-flow__node[data-id='" + email + "'] .has-problems")));
          assertThat(card.getAttribute("title"))
              .contains("Not reachable from “Signup webhook”")
              .doesNotContain("webhook-trigger-mwytvmgf1")
              .doesNotContain("data.config");
          WebElement subject =
              browser.findElement(By.xpath("//label[@for='config-subject']/parent::div"));
          assertThat(subject.getAttribute("class")).contains("invalid");
          assertThat(subject.getText()).contains("Subject");
          page.screenshot("checks");

          // fixed on screen, unsaved: the field turns clean without a save
          page.type(By.id("config-subject"), "Hello {{contact.first_name}}");
          wait.until(
              d ->
                  !browser
                      .findElement(By.xpath("//label[@for='config-subject']/parent::div"))
                      .getAttribute("class")
                      .contains("invalid"));
          assertThat(card.getAttribute("title")).contains("Not reachable");
          assertThat(
                  tenant
                      .api()
                      .get("/api/v1/sequences/" + seq)
                      .at("/sequence/current_version")
                      .asInt())
              .isEqualTo(1);

          // Activate judges the screen too: refused, nothing saved, nothing activated
          page.click(By.xpath("//div[@class='toolbar']//button[text()='Activate']"));
          page.waitForStatus("cannot be activated yet");
          ApiResponse stored = tenant.api().get("/api/v1/sequences/" + seq);
          assertThat(stored.text("/sequence/status")).isEqualTo("draft");
          assertThat(stored.at("/sequence/current_version").asInt()).isEqualTo(1);
        });
  }

  // ---------------------------------------------------------------- 4. the canvas helps

  @Test
  void theCanvasPlacesSummarisesLaysOutAndWorksByKeyboard() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Helpful");
          page.signIn(tenant.key());
          page.go("/sequences/" + seq + "/canvas");

          page.click(By.cssSelector("[data-palette=webhook_trigger]"));
          wait.until(d -> page.nodeIds().size() == 1);
          String trigger = page.nodeIds().get(0);
          awaitStill(); // the fit animates
          assertThat(zoom()).as("the first node is shown at natural size").isLessThanOrEqualTo(1.0);
          assertThat(insideCanvas(trigger)).as("a clicked node lands in view").isTrue();

          // "+" under a node adds the next node, connected and below it
          page.click(
              By.cssSelector(".react-flow__node[data-id='" + trigger + "'] .add-next-button"));
          page.click(By.cssSelector(".menu[data-for='" + trigger + "'] [data-next=delay]"));
          wait.until(d -> page.nodeIds().size() == 2);
          String delay = page.nodeIds().get(1);
          assertThat(page.edgeCount()).isEqualTo(1);
          assertThat(y(delay)).isGreaterThan(y(trigger));
          page.type(By.id("config-delayDays"), "2");
          wait.until(
              d ->
                  page.text(
                          By.cssSelector(
                              ".react-flow__node[data-id='" + delay + "'] .node-summary"))
                      .equals("Wait 2 days"));

          // a node added from the palette, connected by keyboard from the settings panel
          page.click(By.cssSelector("[data-palette=email]"));
          wait.until(d -> page.nodeIds().size() == 3);
          String email = page.nodeIds().get(2);
          page.selectNode(delay);
          new Select(browser.findElement(By.id("connect-to"))).selectByVisibleText("Email");
          wait.until(d -> page.edgeCount() == 2);

          // Tidy up lays the flow out top to bottom
          page.click(By.xpath("//button[text()='Tidy up']"));
          awaitStill();
          assertThat(y(delay)).isGreaterThan(y(trigger));
          assertThat(y(email)).isGreaterThan(y(delay));

          // keyboard: Tab reaches a node, with a visible ring; Enter opens its settings; arrows
          // move
          // a click on the empty pane, left of the flow, clears the selection
          new Actions(browser)
              .moveToElement(browser.findElement(By.cssSelector(".react-flow__pane")), -350, 250)
              .click()
              .perform();
          wait.until(d -> d.findElements(By.cssSelector("form.config")).isEmpty());
          String focused = null;
          for (int i = 0; i < 40 && focused == null; i++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
            focused =
                (String)
                    browser.executeScript(
                        "const a = document.activeElement;"
                            + " return a && a.classList.contains('react-flow__node')"
                            + " ? a.dataset.id : null;");
          }
          assertThat(focused).as("Tab reaches a node").isNotNull();
          assertThat(
                  browser.executeScript(
                      "return getComputedStyle(document.activeElement.querySelector('.flow-node'))"
                          + ".outlineStyle"))
              .isEqualTo("solid");
          page.screenshot("keyboard-focus");
          new Actions(browser).sendKeys(Keys.ENTER).perform();
          wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("form.config")));
          double before = x(focused);
          new Actions(browser).sendKeys(Keys.ARROW_RIGHT).perform();
          String moved = focused;
          wait.until(d -> x(moved) > before);

          // the webhook's URL fits the panel and has a copy button
          page.selectNode(trigger);
          WebElement side = browser.findElement(By.cssSelector(".side"));
          assertThat(browser.findElement(By.id("webhook-url")).getAttribute("value"))
              .endsWith("/api/webhooks/automation/" + tenant.id() + "/" + trigger);
          assertThat(
                  (Long) browser.executeScript("return arguments[0].scrollWidth", side)
                      - (Long) browser.executeScript("return arguments[0].clientWidth", side))
              .as("the side panel does not scroll sideways")
              .isLessThanOrEqualTo(0L);
          page.click(By.xpath("//button[@aria-label='Copy the webhook URL']"));
          wait.until(
              d ->
                  page.text(By.xpath("//button[@aria-label='Copy the webhook URL']"))
                      .equals("Copied"));

          // no page overflow at 1440×900; one toolbar row at 1024×768
          assertThat(pageOverflow()).isLessThanOrEqualTo(0L);
          page.screenshot("canvas-1440x900");
          browser.manage().window().setSize(new Dimension(1024, 768));
          awaitStill();
          assertThat(pageOverflow()).isLessThanOrEqualTo(0L);
          WebElement toolbar = browser.findElement(By.cssSelector(".toolbar"));
          assertThat(toolbar.getSize().getHeight()).as("the toolbar stays one row").isLessThan(50);
          page.screenshot("canvas-1024x768");
        });
  }

  // ---------------------------------------------------------------- 5. safety nets

  @Test
  void riskyActionsAskWithADiffAndTestEventsCarryAContact() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String contact =
              tenant
                  .api()
                  .post("/api/v1/contacts", Map.of("email", "grace@example.com"))
                  .text("/contact/id");
          String seq =
              SequenceSupport.activeAutomation(tenant.api(), "Live flow", complete("hook-l"));
          // version 2 starts on contact updates instead (confirmed: it changes a live trigger)
          Map<String, Object> changed = complete("hook-l");
          @SuppressWarnings("unchecked")
          List<Map<String, Object>> nodes = (List<Map<String, Object>>) changed.get("nodes");
          nodes.set(
              0,
              labelled(
                  "hook-l",
                  "crm_event_trigger",
                  "On contact update",
                  Map.of("eventType", "contact.updated")));
          nodes.set(
              1,
              labelled(
                  "call",
                  "http_request",
                  "Call the CRM",
                  Map.of("method", "POST", "url", "https://example.com/v2")));
          ApiResponse saved =
              tenant
                  .api()
                  .put("/api/sequences/" + seq + "/canvas?confirm_looser_triggers=true", changed);
          assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
          openCanvas(tenant, seq, 3);

          // Restore over an active flow: a dialog with the diff, and in words what stays and
          // what happens to runs in progress; Cancel keeps everything
          page.click(
              By.xpath("//ul[@class='versions']/li[starts-with(normalize-space(.), 'v1')]/button"));
          WebElement dialog =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=dialog]")));
          assertThat(dialog.getText())
              .contains("over the active flow")
              .contains("Call the CRM")
              .contains("url")
              .contains(
                  "Webhook triggers keep the secret (secretToken) they have now; a secret the"
                      + " restored version had is not brought back over it.")
              .contains(
                  "Runs in progress go on with the version they started with, unless moved: an"
                      + " active flow then offers to move the runs waiting in older versions to"
                      + " the restored one. Runs that start after this use the restored version.");
          page.screenshot("restore-diff");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Cancel']"));
          wait.until(d -> d.findElements(By.cssSelector("[role=dialog]")).isEmpty());
          assertThat(version(tenant, seq)).isEqualTo(2);

          // going ahead, the server refuses to make the live trigger public unasked: the
          // dialog says which trigger and why, and restores only when told to anyway
          page.click(
              By.xpath("//ul[@class='versions']/li[starts-with(normalize-space(.), 'v1')]/button"));
          page.click(By.xpath("//div[@role='dialog']//button[text()='Replace']"));
          dialog =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(
                      By.xpath("//div[@role='dialog'][.//h2[contains(., 'would loosen')]]")));
          assertThat(dialog.getText())
              .contains("Restoring version 1 would loosen the live flow's triggers")
              .contains(
                  "On contact update: changes this active trigger from crm_event_trigger to"
                      + " webhook_trigger, without a secretToken: anyone with its path could start"
                      + " runs.")
              .contains("Runs in progress go on with the version they started with");
          page.screenshot("restore-looser");
          assertThat(version(tenant, seq)).isEqualTo(2);
          page.click(By.xpath("//div[@role='dialog']//button[text()='Restore anyway']"));
          page.waitForStatus("Version 1 restored");
          assertThat(version(tenant, seq)).isEqualTo(3);
          JsonNode restored = tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas");
          assertThat(restored.at("/nodes/0/type").asString()).isEqualTo("webhook_trigger");
          assertThat(restored.at("/nodes/1/data/config/url").asString())
              .isEqualTo("https://example.com/hook");

          // Generate over an active flow: asks with the diff first; Cancel changes nothing
          page.type(
              By.id("prompt"),
              "when a webhook arrives, wait 2 days, then send an email with subject Hi");
          page.click(By.xpath("//button[text()='Generate']"));
          dialog =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=dialog]")));
          assertThat(dialog.getText()).contains("Replace the active flow").contains("−");
          page.click(By.xpath("//div[@role='dialog']//button[text()='Cancel']"));
          assertThat(page.nodeIds()).containsExactlyInAnyOrder("hook-l", "call", "wait");
          assertThat(version(tenant, seq)).isEqualTo(3);

          // the test event's body names a contact, so {{contact.*}} has values
          page.selectNode("hook-l");
          wait.until(
              d -> browser.findElement(By.id("test-body")).getAttribute("value").contains(contact));

          // Optimize with nothing to suggest says so
          String quiet = SequenceSupport.automation(tenant.api(), "Quiet");
          save(
              tenant,
              quiet,
              canvas(
                  List.of(
                      labelled("hook-q", "webhook_trigger", "Signup webhook", Map.of()),
                      labelled("hello", "email", "Hello", Map.of("subject", "Hi"))),
                  List.of(edge("e1", "hook-q", "hello"))));
          page.go("/sequences/" + quiet + "/canvas");
          wait.until(d -> page.nodeIds().size() == 2);
          page.click(By.xpath("//button[text()='Optimize']"));
          page.waitForStatus("No suggestions");
        });
  }

  // ---------------------------------------------------------------- 6. the run view

  @Test
  void theRunViewShowsInputOutputErrorAndTheBranchNotTaken() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          Map<String, Object> flow =
              canvas(
                  List.of(
                      at(labelled("hook-r", "webhook_trigger", "Signup webhook", Map.of()), 150, 0),
                      at(
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
                                  "pro")),
                          150,
                          150),
                      at(
                          labelled(
                              "pro",
                              "http_request",
                              "Call pro",
                              Map.of(
                                  "method",
                                  "POST",
                                  "url",
                                  peer.url("/pro"),
                                  "headers",
                                  Map.of(
                                      "X-Plan",
                                      "{{trigger.plan}}",
                                      "Authorization",
                                      "Bearer {{trigger.token}}"))),
                          0,
                          300),
                      at(
                          labelled(
                              "free",
                              "http_request",
                              "Call free",
                              Map.of("method", "POST", "url", peer.url("/free"))),
                          300,
                          300)),
                  List.of(
                      edge("e1", "hook-r", "plan"),
                      edge("e2", "plan", "pro", "true"),
                      edge("e3", "plan", "free", "false")));
          String seq = SequenceSupport.activeAutomation(tenant.api(), "Router", flow);
          String runId =
              SequenceSupport.fire(
                  anonymous(),
                  tenant.id(),
                  "hook-r",
                  Map.of("plan", "pro", "email", "ada@example.com", "token", "tok-hidden-9"));
          SequenceSupport.awaitRun(tenant.api(), runId);
          page.signIn(tenant.key());

          page.go("/sequences/" + seq + "/runs");
          WebElement row =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(
                      By.xpath("//a[text()='" + runId.substring(0, 8) + "']/ancestor::tr")));
          assertThat(page.text(By.xpath("//th[text()='Contact']"))).isEqualTo("Contact");
          assertThat(row.findElement(By.cssSelector(".run-contact")).getText())
              .isEqualTo("ada@example.com");
          assertThat(row.findElement(By.cssSelector(".run-payload")).getText())
              .contains("\"plan\":\"pro\"");
          page.screenshot("run-list");

          row.findElement(By.tagName("a")).click();
          wait.until(
              ExpectedConditions.presenceOfElementLocated(
                  By.cssSelector("[data-run-status=completed]")));
          wait.until(
              d ->
                  d.findElement(By.cssSelector(".react-flow__node[data-id='free'] .flow-node"))
                      .getAttribute("class")
                      .contains("skipped"));
          assertThat(
                  browser
                      .findElement(By.cssSelector(".react-flow__edge[data-id='e3']"))
                      .getAttribute("class"))
              .contains("skipped");
          assertThat(
                  browser
                      .findElement(By.cssSelector(".react-flow__edge[data-id='e2']"))
                      .getAttribute("class"))
              .contains("taken");

          page.click(By.cssSelector(".react-flow__node[data-id='pro'] .node-label"));
          wait.until(d -> page.text(By.cssSelector(".run-node h2")).equals("Call pro"));
          // the input as the node ran with it: its settings filled in, the secret masked
          WebElement input = browser.findElement(By.cssSelector(".node-input"));
          assertThat(input.getAttribute("data-logged")).isEqualTo("true");
          assertThat(input.getText())
              .contains("\"X-Plan\": \"pro\"")
              .contains("\"Authorization\": \"********\"")
              .contains("\"trigger.plan\": \"pro\"")
              .contains(peer.url("/pro"))
              .doesNotContain("tok-hidden-9", "{{trigger.plan}}");
          assertThat(
                  browser.findElements(By.cssSelector(".run-node h3")).stream()
                      .map(WebElement::getText))
              .containsExactly("Input", "Output", "Error");
          assertThat(page.text(By.cssSelector(".node-span"))).matches("[0-9a-f]{16}");
          assertThat(page.text(By.cssSelector(".node-output"))).contains("statusCode");
          assertThat(page.text(By.cssSelector(".run-node"))).contains("Error");
          page.screenshot("run-node");
          page.click(By.cssSelector(".react-flow__node[data-id='free'] .node-label"));
          wait.until(d -> page.text(By.cssSelector(".run-node h2")).equals("Call free"));
          assertThat(page.text(By.cssSelector(".run-node"))).contains("did not take this branch");
        });
  }

  // ---------------------------------------------------------------- 7. nothing dropped while
  // loading

  /**
   * Kept by the page from its first script on: the API's answers to the calls named in
   * sessionStorage's {@code test.hold} ("METHOD path-part" entries) reach the page only when the
   * test releases them, as on a server that answers slowly. The calls themselves go out at once.
   */
  private static final String HOLD_ANSWERS =
      """
      window.heldCalls = [];
      const realFetch = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const method = (init && init.method) || 'GET';
        const url = typeof input === 'string' ? input : input.url;
        const rule = JSON.parse(sessionStorage.getItem('test.hold') || '[]')
            .find(r => r.startsWith(method + ' ') && url.includes(r.slice(method.length + 1)));
        const answer = realFetch(input, init);
        if (!rule) return answer;
        return new Promise(resolve => window.heldCalls.push({rule, release: () => resolve(answer)}));
      };
      window.releaseHeld = rule => {
        window.heldCalls.filter(c => c.rule === rule).forEach(c => c.release());
        window.heldCalls = window.heldCalls.filter(c => c.rule !== rule);
      };
      """;

  @Test
  void aPageThatAnswersSlowlyTakesNoInputUntilItIsReadyAndSaysSo() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Slow");
          String canvasPath = "/api/sequences/" + seq + "/canvas";
          browser.executeCdpCommand(
              "Page.addScriptToEvaluateOnNewDocument", Map.of("source", HOLD_ANSWERS));
          browser.get(baseUrl() + "/console");
          hold("GET /api/v1/node-types", "GET " + canvasPath);
          page.type(By.id("api-key"), tenant.key());
          page.click(By.xpath("//button[text()='Sign in']"));
          browser.get(baseUrl() + "/console/#/sequences/" + seq + "/canvas");

          // the node types on their way: no palette yet, and the page says why
          page.waitForStatus("Loading the node types…");
          assertThat(browser.findElements(By.cssSelector("[data-palette]"))).isEmpty();
          release("GET /api/v1/node-types");

          // the palette is drawn, the canvas still on its way: every control that edits says so
          By trigger = By.cssSelector("[data-palette=webhook_trigger]");
          WebElement item = wait.until(ExpectedConditions.presenceOfElementLocated(trigger));
          assertThat(item.isEnabled()).isFalse();
          assertThat(item.getAttribute("title")).isEqualTo("The canvas is loading…");
          assertThat(page.text(By.cssSelector(".palette-busy")))
              .isEqualTo("The canvas is loading…");
          assertThat(browser.findElement(By.xpath("//button[text()='Validate']")).isEnabled())
              .isFalse();
          assertThat(browser.findElement(By.tagName("main")).getAttribute("data-ready"))
              .isEqualTo("false");
          page.screenshot("loading");
          item.click();
          release("GET " + canvasPath);

          // once the stored canvas is on screen, the palette acts, and what it adds stays
          page.awaitReady();
          assertThat(page.nodeIds()).as("the click made while loading added nothing").isEmpty();
          page.click(trigger);
          wait.until(d -> page.nodeIds().size() == 1);
          String added = page.nodeIds().get(0);

          // a save on its way holds edits until the saved canvas is back on screen
          hold("PUT " + canvasPath);
          page.click(By.xpath("//button[text()='Save']"));
          wait.until(ExpectedConditions.attributeToBe(trigger, "title", "Saving…"));
          assertThat(browser.findElement(trigger).isEnabled()).isFalse();
          assertThat(
                  browser
                      .findElement(By.cssSelector("fieldset.side-fields"))
                      .getAttribute("disabled"))
              .as("the settings of the selected node wait too")
              .isEqualTo("true");
          release("PUT " + canvasPath);
          page.waitForStatus("Saved as version 1.");
          page.awaitReady();
          assertThat(page.nodeIds()).containsExactly(added);
          assertThat(tenant.api().get(canvasPath).text("/canvas/nodes/0/id")).isEqualTo(added);
        });
  }

  /** Holds the answers to these calls ("METHOD path-part") from now on, until released. */
  private void hold(String... calls) {
    browser.executeScript(
        "sessionStorage.setItem('test.hold', JSON.stringify(arguments[0]))", List.of(calls));
  }

  /** Lets the held answers to this call reach the page, and holds no more of them. */
  private void release(String call) {
    wait.until(
        d ->
            (Boolean)
                browser.executeScript(
                    "return window.heldCalls.some(c => c.rule === arguments[0])", call));
    browser.executeScript(
        "const rules = JSON.parse(sessionStorage.getItem('test.hold') || '[]');"
            + " sessionStorage.setItem('test.hold',"
            + " JSON.stringify(rules.filter(r => r !== arguments[0])));"
            + " window.releaseHeld(arguments[0]);",
        call);
  }

  // ---------------------------------------------------------------- helpers

  private static Map<String, Object> labelled(
      String id, String type, String label, Map<String, Object> config) {
    Map<String, Object> node = new LinkedHashMap<>();
    node.put("id", id);
    node.put("type", type);
    node.put("position", Map.of("x", 0, "y", 0));
    node.put("data", Map.of("label", label, "config", config));
    return node;
  }

  /** Signup webhook → Call the CRM → Wait a day, laid out top to bottom. */
  private static Map<String, Object> complete(String triggerId) {
    List<Map<String, Object>> nodes =
        new java.util.ArrayList<>(
            List.of(
                at(labelled(triggerId, "webhook_trigger", "Signup webhook", Map.of()), 0, 0),
                at(
                    labelled(
                        "call",
                        "http_request",
                        "Call the CRM",
                        Map.of("method", "POST", "url", "https://example.com/hook")),
                    0,
                    160),
                at(labelled("wait", "delay", "Wait a day", Map.of("delayDays", 1)), 0, 320)));
    return new LinkedHashMap<>(
        Map.of(
            "nodes",
            nodes,
            "edges",
            List.of(edge("e1", triggerId, "call"), edge("e2", "call", "wait"))));
  }

  private static Map<String, Object> at(Map<String, Object> node, int x, int y) {
    node.put("position", Map.of("x", x, "y", y));
    return node;
  }

  private int version(TenantClient tenant, String seq) {
    return tenant.api().get("/api/v1/sequences/" + seq).at("/sequence/current_version").asInt();
  }

  /**
   * Waits until the page stops moving: the viewport's transform, every node's position and the
   * page's size read the same twice in a row (an animation or a relayout has ended).
   */
  private void awaitStill() {
    String[] last = {null};
    wait.until(
        d -> {
          Object now =
              browser.executeScript(
                  "const v = document.querySelector('.react-flow__viewport');"
                      + " return [window.innerWidth, document.documentElement.scrollWidth,"
                      + " v ? v.style.transform : '',"
                      + " ...[...document.querySelectorAll('.react-flow__node')]"
                      + ".map(n => n.style.transform)].join('|');");
          boolean still = now.toString().equals(last[0]);
          last[0] = now.toString();
          return still;
        });
  }

  /** The canvas's zoom, from its viewport's transform. */
  private double zoom() {
    return ((Number)
            browser.executeScript(
                "return new DOMMatrix(getComputedStyle(document.querySelector("
                    + "'.react-flow__viewport')).transform).a;"))
        .doubleValue();
  }

  private double x(String id) {
    return position(id)[0];
  }

  private double y(String id) {
    return position(id)[1];
  }

  /** The node's position in the flow, from its transform. */
  private double[] position(String id) {
    @SuppressWarnings("unchecked")
    List<Number> xy =
        (List<Number>)
            browser.executeScript(
                "const m = new DOMMatrix(getComputedStyle(document.querySelector("
                    + "\".react-flow__node[data-id='\" + arguments[0] + \"']\")).transform);"
                    + " return [m.e, m.f];",
                id);
    return new double[] {xy.get(0).doubleValue(), xy.get(1).doubleValue()};
  }

  private boolean insideCanvas(String id) {
    return (Boolean)
        browser.executeScript(
            "const c = document.querySelector('.flow').getBoundingClientRect();"
                + " const n = document.querySelector(\".react-flow__node[data-id='\" + arguments[0]"
                + " + \"']\").getBoundingClientRect();"
                + " return n.left >= c.left && n.right <= c.right && n.top >= c.top"
                + " && n.bottom <= c.bottom;",
            id);
  }

  private long pageOverflow() {
    return (Long)
        browser.executeScript(
            "return Math.max(document.documentElement.scrollHeight - window.innerHeight,"
                + " document.documentElement.scrollWidth - window.innerWidth);");
  }
}
