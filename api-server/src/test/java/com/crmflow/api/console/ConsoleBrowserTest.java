package com.crmflow.api.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.ConsolePage;
import com.crmflow.api.support.LocalHttpServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

/**
 * The console at /console in headless Chromium, against this running service: a designer builds a
 * flow by dragging and connecting, is refused activation with the problem shown on its node, fixes
 * it, fires a test event and watches the run's nodes turn green, then retries a failed run from its
 * failed node. Screenshots go to target/console.
 */
class ConsoleBrowserTest extends ApiTest {

  private ConsolePage page;
  private ChromeDriver browser;
  private WebDriverWait wait;
  private LocalHttpServer peer;

  @BeforeEach
  void start() throws Exception {
    peer = new LocalHttpServer();
    page = ConsolePage.open(baseUrl(), "browser");
    browser = page.browser();
    wait = page.await();
  }

  @AfterEach
  void stop() {
    if (page != null) {
      page.close();
    }
    peer.close();
  }

  @Test
  void aDesignerBuildsActivatesRunsAndRetriesAFlow() throws Exception {
    page.guarded(this::buildActivateRunAndRetry);
  }

  /** Kept by the page from its first script on: what its Content-Security-Policy refused. */
  private static final String RECORD_CSP_VIOLATIONS =
      """
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', e =>
          window.cspViolations.push(e.effectiveDirective + ' refused ' + e.blockedURI));
      """;

  @SuppressWarnings("unchecked")
  private void assertNoCspViolation() {
    assertThat((List<String>) browser.executeScript("return window.cspViolations"))
        .as("CSP violations on " + browser.getCurrentUrl())
        .isNotNull()
        .isEmpty();
  }

  private void buildActivateRunAndRetry() throws Exception {
    TenantClient tenant = newTenant("*");
    browser.executeCdpCommand(
        "Page.addScriptToEvaluateOnNewDocument", Map.of("source", RECORD_CSP_VIOLATIONS));
    page.signIn(tenant.key());

    page.click(By.xpath("//button[text()='New flow']"));
    page.type(By.id("new-name"), "Plan router");
    page.clickThrough(By.xpath("//button[text()='Create']"));
    assertThat(browser.getCurrentUrl()).contains("/canvas");

    // the trigger is dragged from the palette; the rest are added from it with a click
    dragFromPalette("webhook_trigger", 400, 150);
    page.click(By.cssSelector("[data-palette=condition]"));
    page.click(By.cssSelector("[data-palette=http_request]"));
    page.click(By.cssSelector("[data-palette=http_request]"));
    // a node added by mistake goes with the Delete key
    page.click(By.cssSelector("[data-palette=delay]"));
    wait.until(d -> page.nodeIds().size() == 5);
    String mistake = page.nodeIds().get(4);
    page.click(By.cssSelector(".react-flow__controls-fitview"));
    page.selectNode(mistake);
    new Actions(browser).sendKeys(Keys.DELETE).perform();
    wait.until(d -> page.nodeIds().size() == 4);
    List<String> ids = page.nodeIds();
    assertThat(ids).doesNotContain(mistake);
    String trigger = ids.get(0);
    String condition = ids.get(1);
    String pro = ids.get(2);
    String free = ids.get(3);
    // Tidy up puts the unconnected nodes side by side; the checks list each card's problems,
    // which sizes the cards after they are drawn: fit the view until every card is inside it,
    // clear of its edges (where a drag pans the canvas)
    page.click(By.xpath("//button[text()='Tidy up']"));
    wait.until(
        d -> {
          page.click(By.cssSelector(".react-flow__controls-fitview"));
          return (Boolean)
              browser.executeScript(
                  "const c = document.querySelector('.flow').getBoundingClientRect();"
                      + " return [...document.querySelectorAll('.react-flow__node')].every(n => {"
                      + " const r = n.getBoundingClientRect();"
                      + " return r.top >= c.top + 40 && r.bottom <= c.bottom - 40"
                      + " && r.left >= c.left + 40 && r.right <= c.right - 40; });");
        });

    page.connect(trigger, null, condition);
    // a condition's branches leave from its true and false handles
    page.connect(condition, "true", pro);
    page.connect(condition, "false", free);
    assertThat(browser.findElements(By.cssSelector(".react-flow__edge"))).hasSize(3);
    assertThat(edgeLabels()).containsExactlyInAnyOrder("true", "false");

    page.selectNode(condition);
    page.type(By.id("config-field"), "{{trigger.plan}}");
    new Select(browser.findElement(By.id("config-operator"))).selectByValue("equals");
    page.type(By.id("config-value"), "pro");
    page.selectNode(pro);
    new Select(browser.findElement(By.id("config-method"))).selectByValue("POST");
    page.type(By.id("config-url"), peer.url("/pro"));
    page.selectNode(free);
    new Select(browser.findElement(By.id("config-method"))).selectByValue("POST");
    // free's url is left out: activation is refused
    page.click(By.xpath("//button[text()='Save']"));
    page.waitForStatus("Saved as version 1.");
    page.click(By.xpath("//div[@class='toolbar']//button[text()='Activate']"));
    WebElement refused =
        wait.until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector(".react-flow__node[data-id='" + free + "'] .has-problems")));
    assertThat(refused.getText()).contains("URL is required");
    page.screenshot("refused-activation");

    page.selectNode(free);
    assertThat(browser.findElement(By.cssSelector(".field.invalid")).getText())
        .contains("is required");
    page.type(By.id("config-url"), peer.url("/free"));
    page.click(By.xpath("//button[text()='Save']"));
    page.waitForStatus("Saved as version 2.");
    page.click(By.xpath("//div[@class='toolbar']//button[text()='Activate']"));
    page.waitForStatus("Active.");
    assertThat(
            tenant
                .api()
                .get("/api/v1/sequences?flow_type=all")
                .at("/sequences/0/status")
                .asString())
        .isEqualTo("active");

    // a test event from the trigger's panel; the run view shows the nodes as they complete
    page.selectNode(trigger);
    WebElement body = browser.findElement(By.id("test-body"));
    // the panel fills in a sample body a moment after it opens; a designer clears it once it shows
    wait.until(d -> !body.getDomProperty("value").isEmpty());
    body.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    body.sendKeys("{\"plan\": \"pro\"}");
    page.click(By.xpath("//button[text()='Send test event']"));
    page.click(By.cssSelector(".test-event a"));
    wait.until(
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-run-status=completed]")));
    for (String completed : List.of(trigger, condition, pro)) {
      assertThat(nodeClasses(completed)).contains("completed");
    }
    assertThat(nodeClasses(free)).doesNotContain("completed");
    assertThat(peer.received("/pro")).hasSize(1);
    page.screenshot("completed-run");
    assertNoCspViolation();

    // a run that fails at free, retried from that node once free answers
    peer.answer("/free", 400, "{\"error\": \"not yet\"}");
    String failed =
        anonymous()
            .post("/api/webhooks/automation/" + tenant.id() + "/" + trigger, Map.of("plan", "free"))
            .text("/runId");
    page.go("/sequences/" + sequenceId(tenant) + "/runs/" + failed);
    wait.until(
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-run-status=failed]")));
    assertThat(nodeClasses(free)).contains("failed");
    peer.answer("/free", 200, "{\"ok\": true}");
    page.click(By.xpath("//button[text()='Retry from the failed node']"));
    // the retry asks first, saying what it does again
    assertThat(page.text(By.cssSelector("[role=dialog]"))).contains("A new run starts");
    page.click(By.xpath("//div[@role='dialog']//button[text()='Retry']"));
    wait.until(
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("[data-run-status=completed]")));
    assertThat(browser.getCurrentUrl()).doesNotContain(failed);
    assertThat(nodeClasses(free)).contains("completed");
    assertThat(peer.received("/free")).hasSize(2);
    assertThat(peer.received("/pro")).hasSize(1);
    page.screenshot("retried-run");
    assertNoCspViolation();

    // the canvas shows where the flow's runs are, as the stats endpoint counts them: one run
    // reached pro; free failed in one run and passed in its retry
    String sequenceId = sequenceId(tenant);
    JsonNode stats = tenant.api().get("/api/sequences/" + sequenceId + "/stats").at("");
    JsonNode freeCounts =
        stats
            .at("/versions/0/nodes")
            .valueStream()
            .filter(n -> n.get("node_id").asString().equals(free))
            .findFirst()
            .orElseThrow();
    assertThat(freeCounts.get("failed").asLong()).as(stats.toString()).isEqualTo(1);
    assertThat(freeCounts.get("passed").asLong()).as(stats.toString()).isEqualTo(1);
    page.go("/sequences/" + sequenceId + "/canvas");
    wait.until(d -> "1 passed".equals(nodeCounts(pro)));
    assertThat(nodeCounts(free)).isEqualTo("1 passed · 1 failed");
    // a run that comes later is counted once the counts are read again
    anonymous()
        .post("/api/webhooks/automation/" + tenant.id() + "/" + trigger, Map.of("plan", "pro"));
    wait.until(
        d -> {
          page.click(By.cssSelector(".refresh-counts"));
          return "2 passed".equals(nodeCounts(pro));
        });
    page.screenshot("counts-per-node");
    // the console ran under its policy throughout, both page loads included
    assertThat(
            browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy")))
        .isEmpty();
    // and the policy is in force: a script written into the page does not run
    Object ran =
        browser.executeScript(
            "const s = document.createElement('script');"
                + " s.textContent = 'window.inlineRan = true';"
                + " document.head.appendChild(s);"
                + " return window.inlineRan === true;");
    assertThat(ran).isEqualTo(false);
  }

  /** What a node's card says of the runs at it, or "" when it says nothing. */
  private String nodeCounts(String nodeId) {
    List<WebElement> counts =
        browser.findElements(
            By.cssSelector(".react-flow__node[data-id='" + nodeId + "'] .node-counts"));
    return counts.isEmpty() ? "" : counts.get(0).getText();
  }

  private String sequenceId(TenantClient tenant) {
    return tenant.api().get("/api/v1/sequences?flow_type=all").text("/sequences/0/id");
  }

  /** HTML5 drag and drop from the palette onto the canvas, as a mouse makes it. */
  private void dragFromPalette(String type, int x, int y) {
    WebElement item = browser.findElement(By.cssSelector("[data-palette=" + type + "]"));
    WebElement canvas = browser.findElement(By.cssSelector(".flow"));
    ((JavascriptExecutor) browser)
        .executeScript(
            """
            const [item, canvas, x, y] = arguments;
            const box = canvas.getBoundingClientRect();
            const data = new DataTransfer();
            const at = {bubbles: true, cancelable: true, dataTransfer: data,
                        clientX: box.left + x, clientY: box.top + y};
            item.dispatchEvent(new DragEvent('dragstart', at));
            canvas.dispatchEvent(new DragEvent('dragover', at));
            canvas.dispatchEvent(new DragEvent('drop', at));
            item.dispatchEvent(new DragEvent('dragend', at));
            """,
            item,
            canvas,
            x,
            y);
  }

  /** The node's classes, once the canvas has drawn it (React Flow draws after it measures). */
  private String nodeClasses(String id) {
    return wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(".react-flow__node[data-id='" + id + "'] .flow-node")))
        .getAttribute("class");
  }

  private List<String> edgeLabels() {
    return browser.findElements(By.cssSelector(".react-flow__edge-text")).stream()
        .map(WebElement::getText)
        .toList();
  }
}
