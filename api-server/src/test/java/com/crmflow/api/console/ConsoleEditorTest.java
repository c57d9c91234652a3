package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.SequenceSupport;
import java.util.ArrayList;
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

/**
 * The canvas as a designer who knows n8n's and HubSpot's editors uses it, in headless Chromium
 * against this running service: Delete takes what has the focus; the "+" menu opens in view and
 * closes on Escape; a condition has a handle per outcome and an edge's outcome can be changed;
 * problems follow the canvas on screen as it is drawn, every one of a card listed and counted; a
 * draft with problems saves and says so; the variable picker offers what the node can read. Each
 * page is checked with axe-core. Screenshots go to target/console (editor-*.png).
 */
class ConsoleEditorTest extends ConsoleTest {

  @Override
  protected String screenshotPrefix() {
    return "editor";
  }

  @Test
  void deleteRemovesTheFocusedEdgeAndNodesAndEdgesAreNamedByTheirLabels() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Focus");
          save(tenant, seq, signupCallWait("hook-f"));
          page.signIn(tenant.key());
          page.go("/sequences/" + seq + "/canvas");
          wait.until(d -> page.nodeIds().size() == 3 && page.edgeCount() == 2);

          // screen readers hear labels, not ids
          assertThat(node("call").getAttribute("aria-label"))
              .isEqualTo("HTTP request “Call the CRM”");
          assertThat(
                  browser
                      .findElement(By.cssSelector(".react-flow__edge[data-id='e2']"))
                      .getAttribute("aria-label"))
              .isEqualTo("Connection from HTTP request “Call the CRM” to Delay “Wait a day”");

          // a node selected, then the focus moved back to an edge: Delete takes the edge alone
          page.selectNode("call");
          String focused = null;
          for (int i = 0; i < 20 && focused == null; i++) {
            new Actions(browser).keyDown(Keys.SHIFT).sendKeys(Keys.TAB).keyUp(Keys.SHIFT).perform();
            focused =
                (String)
                    browser.executeScript(
                        "const a = document.activeElement;"
                            + " return a && a.classList.contains('react-flow__edge')"
                            + " ? a.dataset.id : null;");
          }
          assertThat(focused).as("Shift+Tab reaches an edge").isNotNull();
          assertThat(node("call").getAttribute("class")).contains("selected");
          new Actions(browser).sendKeys(Keys.DELETE).perform();
          wait.until(d -> page.edgeCount() == 1);
          assertThat(page.nodeIds()).containsExactlyInAnyOrder("hook-f", "call", "wait");
          String gone = focused;
          assertThat(
                  browser.findElements(By.cssSelector(".react-flow__edge[data-id='" + gone + "']")))
              .isEmpty();
          assertThat(page.seriousAccessibilityViolations()).as("axe on the canvas").isEmpty();
        });
  }

  @Test
  void theAddMenuUnderTheLowestNodeOpensInViewAndClosesOnEscape() throws Exception {
    page.guarded(
        () -> {
          browser.manage().window().setSize(new Dimension(1024, 768));
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Tall");
          List<Map<String, Object>> nodes = new ArrayList<>();
          List<Map<String, Object>> edges = new ArrayList<>();
          nodes.add(labelled("hook-t", "webhook_trigger", "Start", Map.of(), 0, 0));
          for (int i = 1; i <= 5; i++) {
            nodes.add(labelled("w" + i, "delay", "Wait " + i, Map.of("delayDays", i), 0, i * 160));
            edges.add(edge("e" + i, i == 1 ? "hook-t" : "w" + (i - 1), "w" + i));
          }
          save(tenant, seq, canvas(nodes, edges));
          openCanvas(tenant, seq, 6);
          page.selectNode("w5");

          By plus = By.cssSelector(".react-flow__node[data-id='w5'] .add-next-button");
          page.click(plus);
          WebElement menu =
              wait.until(
                  ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=menu]")));
          page.screenshot("add-menu");
          // every entry can be reached: the menu lies inside the window, and scrolls if need be
          @SuppressWarnings("unchecked")
          Map<String, Number> box =
              (Map<String, Number>)
                  browser.executeScript(
                      "const m = arguments[0].getBoundingClientRect();"
                          + " const items = arguments[0].querySelectorAll('[role=menuitem]');"
                          + " const last = items[items.length - 1];"
                          + " last.scrollIntoView({block: 'nearest'});"
                          + " const l = last.getBoundingClientRect();"
                          + " const hit = document.elementFromPoint(l.left + 5, l.top + l.height / 2);"
                          + " return {top: m.top, bottom: m.bottom, height: innerHeight,"
                          + " lastShown: hit === last ? 1 : 0};",
                      menu);
          assertThat(box.get("top").doubleValue()).isGreaterThanOrEqualTo(0);
          assertThat(box.get("bottom").doubleValue())
              .isLessThanOrEqualTo(box.get("height").doubleValue());
          assertThat(box.get("lastShown").intValue()).as("the last entry can be seen").isEqualTo(1);

          new Actions(browser).sendKeys(Keys.ESCAPE).perform();
          wait.until(d -> d.findElements(By.cssSelector("[role=menu]")).isEmpty());
          assertThat(browser.switchTo().activeElement().getAttribute("class"))
              .contains("add-next-button");

          // by keyboard: Enter opens it, End goes to its last entry, Enter adds that node
          new Actions(browser).sendKeys(Keys.ENTER).perform();
          wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[role=menu]")));
          List<WebElement> entries =
              browser.findElements(By.cssSelector("[role=menu] [role=menuitem]"));
          String last = entries.get(entries.size() - 1).getAttribute("data-next");
          new Actions(browser).sendKeys(Keys.END).sendKeys(Keys.ENTER).perform();
          wait.until(d -> page.nodeIds().size() == 7 && page.edgeCount() == 6);
          String added = page.nodeIds().get(6);
          assertThat(
                  node(added)
                      .findElement(By.cssSelector(".flow-node"))
                      .getAttribute("data-node-type"))
              .isEqualTo(last);
        });
  }

  @Test
  void aConditionHasAHandlePerOutcomeAndAConnectionsOutcomeCanBeChanged() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Branches");
          save(
              tenant,
              seq,
              canvas(
                  List.of(
                      labelled("hook-b", "webhook_trigger", "Signup", Map.of(), 250, 0),
                      labelled(
                          "plan",
                          "condition",
                          "Is it pro?",
                          Map.of("field", "{{trigger.plan}}", "operator", "equals", "value", "pro"),
                          250,
                          150),
                      labelled("pro", "http_request", "Call pro", call("/pro"), 0, 350),
                      labelled("free", "http_request", "Call free", call("/free"), 500, 350)),
                  List.of(edge("e1", "hook-b", "plan"))));
          openCanvas(tenant, seq, 4);

          // a labelled handle per outcome, as the node type describes them
          WebElement plan = node("plan");
          assertThat(
                  plan.findElements(By.cssSelector(".outcome-label")).stream()
                      .map(WebElement::getText))
              .containsExactly("true", "false");
          page.connect("plan", "false", "free");
          page.connect("plan", "true", "pro");
          wait.until(d -> edgeLabels().size() == 2);
          assertThat(edgeLabels()).containsExactlyInAnyOrder("true", "false");
          page.screenshot("branches");

          // clicking a connection opens its settings: its outcome can be changed, or it deleted
          clickEdge(wait.until(d -> edgeTo("free")));
          Select outcome =
              new Select(
                  wait.until(ExpectedConditions.elementToBeClickable(By.id("edge-outcome"))));
          assertThat(outcome.getFirstSelectedOption().getText()).isEqualTo("false");
          assertThat(outcome.getOptions())
              .extracting(WebElement::getText)
              .containsExactly("true", "false");
          outcome.selectByValue("true");
          wait.until(d -> edgeLabels().stream().filter("true"::equals).count() == 2);
          page.click(By.xpath("//button[text()='Save']"));
          page.waitForStatus("Saved as version 2.");
          assertThat(labelOf(tenant, seq, "free")).isEqualTo("true");

          // the saved version replaces the canvas: its connections are drawn again
          clickEdge(wait.until(d -> edgeTo("free")));
          new Select(wait.until(ExpectedConditions.elementToBeClickable(By.id("edge-outcome"))))
              .selectByValue("false");
          page.click(By.xpath("//button[text()='Delete connection']"));
          wait.until(d -> page.edgeCount() == 2);
          assertThat(edgeLabels()).containsExactly("true");
        });
  }

  @Test
  void problemsFollowTheCanvasOnScreenAsItIsDrawnEachOneListedAndCounted() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Live checks");
          // version 1 has an email without a subject; version 2, active, has it fixed
          save(tenant, seq, signupAndMail("hook-l", Map.of()));
          save(tenant, seq, signupAndMail("hook-l", Map.of("subject", "Hello")));
          assertThat(
                  tenant
                      .api()
                      .patch("/api/v1/sequences/" + seq, Map.of("status", "active"))
                      .status())
              .isEqualTo(200);
          openCanvas(tenant, seq, 2);
          wait.until(d -> text(".check-count").equals("✓ complete"));

          // restoring version 1 over the active flow is refused: the refusal is about version 1,
          // so the email on screen, which has its subject, is not marked
          page.click(
              By.xpath("//ul[@class='versions']/li[starts-with(normalize-space(.), 'v1')]/button"));
          page.click(By.xpath("//div[@role='dialog']//button[text()='Replace']"));
          WebElement refusal =
              wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".refusal")));
          assertThat(refusal.getText())
              .contains("An active automation only accepts changes")
              .contains("Subject");
          page.awaitReady();
          assertThat(node("mail").findElement(By.cssSelector(".flow-node")).getAttribute("class"))
              .doesNotContain("has-problems");
          assertThat(text(".check-count")).isEqualTo("✓ complete");

          // nothing asked: a new email, unconnected and without a subject, is judged as drawn
          page.click(By.cssSelector("[data-palette=email]"));
          wait.until(d -> page.nodeIds().size() == 3);
          String added = page.nodeIds().get(2);
          wait.until(d -> problemsOf(added).size() == 2);
          assertThat(problemsOf(added))
              .anyMatch(p -> p.startsWith("Subject"))
              .anyMatch(p -> p.startsWith("Not reachable from “Signup”"));
          assertThat(text(".check-count")).isEqualTo("2 to fix");
          page.screenshot("live-checks");

          // the count goes down as things are fixed
          page.type(By.id("config-subject"), "Welcome");
          wait.until(d -> text(".check-count").equals("1 to fix"));
          assertThat(problemsOf(added)).containsExactly("Not reachable from “Signup”");
          page.selectNode("hook-l");
          new Select(browser.findElement(By.id("connect-to"))).selectByValue(added);
          wait.until(d -> text(".check-count").equals("✓ complete"));
          assertThat(problemsOf(added)).isEmpty();
        });
  }

  @Test
  void aDraftWithProblemsSavesAndSaysWhatIsLeftToFix() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          String seq = SequenceSupport.automation(tenant.api(), "Draft");
          save(tenant, seq, signupAndMail("hook-d", Map.of("subject", "Hello")));
          openCanvas(tenant, seq, 2);
          page.click(By.cssSelector("[data-palette=email]"));
          wait.until(d -> page.nodeIds().size() == 3);
          page.click(By.xpath("//button[text()='Save']"));
          page.waitForStatus(
              "Saved as version 2. 2 problems to fix before it can be activated: see the marked"
                  + " nodes.");
          assertThat(
                  tenant.api().get("/api/sequences/" + seq + "/canvas").at("/canvas/nodes").size())
              .isEqualTo(3);
        });
  }

  @Test
  void theVariablePickerOffersWhatTheNodeCanReadAndTemplatesArePickedByName() throws Exception {
    page.guarded(
        () -> {
          TenantClient tenant = newTenant("*");
          assertThat(
                  tenant
                      .api()
                      .post(
                          "/api/v1/custom-fields",
                          Map.of(
                              "object_type",
                              "contact",
                              "field_label",
                              "Shoe size",
                              "field_key",
                              "shoe_size",
                              "field_type",
                              "text"))
                      .status())
              .isEqualTo(201);
          String template =
              tenant
                  .api()
                  .post(
                      "/api/v1/email-templates",
                      Map.of("name", "Welcome pack", "subject", "Welcome aboard"))
                  .text("/email_template/id");
          String contact =
              tenant
                  .api()
                  .post("/api/v1/contacts", Map.of("email", "ada@example.com", "first_name", "Ada"))
                  .text("/contact/id");
          peer.answer("/lookup", 200, "{\"id\": 42, \"tier\": \"gold\"}");
          String seq =
              SequenceSupport.activeAutomation(
                  tenant.api(),
                  "Mapped",
                  canvas(
                      List.of(
                          labelled("hook-m", "webhook_trigger", "Signup", Map.of(), 0, 0),
                          labelled("look", "http_request", "Look up", call("/lookup"), 0, 150),
                          labelled("mail", "email", "Welcome", Map.of("subject", "Hi"), 0, 300)),
                      List.of(edge("e1", "hook-m", "look"), edge("e2", "look", "mail"))));
          String run =
              SequenceSupport.fire(
                  anonymous(), tenant.id(), "hook-m", Map.of("plan", "pro", "contact_id", contact));
          SequenceSupport.awaitRun(tenant.api(), run);
          openCanvas(tenant, seq, 3);
          page.selectNode("mail");

          By picker = By.cssSelector("select[aria-label='Insert a variable into Subject']");
          // the trigger's sample and the earlier node's output come from the last run
          wait.until(d -> optionValues(picker).contains("http_request_1.body.tier"));
          List<String> values = optionValues(picker);
          assertThat(values)
              .contains(
                  "trigger.plan",
                  "contact.email",
                  "contact.lifecycle_stage",
                  "contact.custom_fields.shoe_size",
                  "http_request_1.statusCode",
                  "http_request_1.body.id")
              .noneMatch(v -> v.endsWith("."));
          assertThat(optionText(picker, "trigger.plan")).startsWith("plan = pro");
          assertThat(optionText(picker, "contact.custom_fields.shoe_size")).startsWith("Shoe size");
          assertThat(optionText(picker, "contact.lifecycle_stage")).startsWith("Lifecycle stage");
          assertThat(optionText(picker, "http_request_1.body.tier")).startsWith("body.tier = gold");
          assertThat(
                  browser
                      .findElements(
                          By.cssSelector(
                              "select[aria-label='Insert a variable into Subject'] optgroup"))
                      .stream()
                      .map(g -> g.getAttribute("label")))
              .contains("HTTP request “Look up” · http_request_1");

          // picked, it goes where the caret is
          WebElement subject = browser.findElement(By.id("config-subject"));
          subject.sendKeys(Keys.END, " ");
          new Select(browser.findElement(picker)).selectByValue("contact.custom_fields.shoe_size");
          wait.until(
              d ->
                  browser
                      .findElement(By.id("config-subject"))
                      .getAttribute("value")
                      .equals("Hi {{contact.custom_fields.shoe_size}}"));

          // the template is one of the tenant's, by name
          Select templates = new Select(browser.findElement(By.id("config-templateId")));
          wait.until(d -> templates.getOptions().size() == 2);
          templates.selectByVisibleText("Welcome pack · Welcome aboard");
          assertThat(templates.getFirstSelectedOption().getAttribute("value")).isEqualTo(template);
          page.screenshot("picker");
        });
  }

  // ---------------------------------------------------------------- helpers

  private Map<String, Object> call(String path) {
    return Map.of("method", "POST", "url", peer.url(path));
  }

  /** Signup webhook → Call the CRM → Wait a day. */
  private static Map<String, Object> signupCallWait(String hook) {
    return canvas(
        List.of(
            labelled(hook, "webhook_trigger", "Signup webhook", Map.of(), 0, 0),
            labelled(
                "call",
                "http_request",
                "Call the CRM",
                Map.of("method", "POST", "url", "https://example.com/hook"),
                0,
                160),
            labelled("wait", "delay", "Wait a day", Map.of("delayDays", 1), 0, 320)),
        List.of(edge("e1", hook, "call"), edge("e2", "call", "wait")));
  }

  /** Signup → an email with this config. */
  private static Map<String, Object> signupAndMail(String hook, Map<String, Object> mail) {
    return canvas(
        List.of(
            labelled(hook, "webhook_trigger", "Signup", Map.of(), 0, 0),
            labelled("mail", "email", "Welcome mail", mail, 0, 200)),
        List.of(edge("e1", hook, "mail")));
  }

  private WebElement node(String id) {
    return wait.until(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector(".react-flow__node[data-id='" + id + "']")));
  }

  private String text(String css) {
    return browser.findElement(By.cssSelector(css)).getText();
  }

  /** The problems a node's card lists. */
  private List<String> problemsOf(String id) {
    return browser
        .findElements(By.cssSelector(".react-flow__node[data-id='" + id + "'] .node-problem"))
        .stream()
        .map(WebElement::getText)
        .toList();
  }

  private List<String> edgeLabels() {
    return browser.findElements(By.cssSelector(".react-flow__edge-text")).stream()
        .map(WebElement::getText)
        .toList();
  }

  /** The id of the edge into this node, or null while it is not drawn. */
  private String edgeTo(String target) {
    // one look at the page: while the canvas is drawn again, the label and the edge may be missing
    return (String)
        browser.executeScript(
            "const label = document.querySelector("
                + " `.react-flow__node[data-id='${arguments[0]}'] .node-label`);"
                + " const e = label && [...document.querySelectorAll('.react-flow__edge')].find(e =>"
                + " (e.getAttribute('aria-label') || '').includes('“' + label.innerText.trim() + '”'));"
                + " return e ? e.dataset.id : null;",
            target);
  }

  private void clickEdge(String id) {
    WebElement path =
        browser.findElement(
            By.cssSelector(
                ".react-flow__edge[data-id='" + id + "'] .react-flow__edge-interaction"));
    new Actions(browser).moveToElement(path).click().perform();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("form.edge-panel")));
  }

  /** The stored label of the edge into this node. */
  private String labelOf(TenantClient tenant, String seq, String target) {
    return tenant
        .api()
        .get("/api/sequences/" + seq + "/canvas")
        .at("/canvas/edges")
        .valueStream()
        .filter(e -> e.get("target").asString().equals(target))
        .map(e -> e.get("label").asString())
        .findFirst()
        .orElseThrow();
  }

  private List<String> optionValues(By select) {
    return new Select(browser.findElement(select))
        .getOptions().stream().map(o -> o.getAttribute("value")).toList();
  }

  private String optionText(By select, String value) {
    return new Select(browser.findElement(select))
        .getOptions().stream()
            .filter(o -> value.equals(o.getAttribute("value")))
            .map(WebElement::getText)
            .findFirst()
            .orElseThrow();
  }
}
