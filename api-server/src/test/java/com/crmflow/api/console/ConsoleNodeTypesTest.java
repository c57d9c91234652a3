package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.node;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.nodetype.TestNodeTypes;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.ConsolePage;
import com.crmflow.api.support.SequenceSupport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.context.annotation.Import;

/**
 * The console draws its palette and its forms from GET /api/v1/node-types: a node type the
 * console's code has never heard of (the tests' audit_stamp) is in the palette's group, and its
 * form has a control per field kind with the field's label, help, limits, options and variable
 * picker; its card shows the line its descriptor names, and a key-value field masks the entries the
 * service's served rule names secret. In headless Chromium against this running service; screenshot
 * in target/console.
 */
@Import(TestNodeTypes.class)
class ConsoleNodeTypesTest extends ApiTest {

  private ConsolePage page;
  private ChromeDriver browser;
  private WebDriverWait wait;

  @BeforeEach
  void start() throws Exception {
    page = ConsolePage.open(baseUrl(), "node-types");
    browser = page.browser();
    browser.manage().window().setSize(new Dimension(1440, 900));
    wait = page.await();
  }

  @AfterEach
  void stop() {
    if (page != null) {
      page.close();
    }
  }

  @Test
  void aNodeTypeOfTheApiIsInThePaletteWithAFormDrawnFromItsFields() throws Exception {
    TenantClient tenant = newTenant("*");
    String flow = SequenceSupport.automation(tenant.api(), "Stamps");
    Map<String, Object> call =
        node(
            "call",
            "http_request",
            Map.of(
                "method",
                "POST",
                "url",
                "https://hooks.example.com/in",
                "headers",
                Map.of("X-Api-Key", "key-1", "X-Cookie-Jar", "jar-1")));
    // beside the others, so that each card can be clicked
    call.put("position", Map.of("x", 420, "y", 320));
    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + flow + "/canvas",
                    canvas(
                        List.of(
                            node("hook", "webhook_trigger", Map.of()),
                            node(
                                "stamp",
                                "audit_stamp",
                                Map.of("note", "{{trigger.id}}", "level", "warn")),
                            call),
                        List.of(edge("e1", "hook", "stamp"), edge("e2", "stamp", "call"))))
                .status())
        .isEqualTo(200);
    page.signIn(tenant.key());
    page.go("/sequences/" + flow + "/canvas");

    // the palette: in its group, with its icon name, beside the built-in types
    WebElement item =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("[role=group][aria-label=Actions] [data-palette=audit_stamp]")));
    assertThat(item.getText()).isEqualTo("Audit stamp");
    assertThat(item.getAttribute("data-icon")).isEqualTo("stamp");
    assertThat(browser.findElements(By.cssSelector("[role=group][aria-label=Triggers] button")))
        .extracting(e -> e.getAttribute("data-palette"))
        .containsExactly("webhook_trigger", "schedule_trigger", "crm_event_trigger");

    // its card and its form: a template field with its help and variable picker, a select
    WebElement card =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector(".react-flow__node[data-id='stamp']")));
    assertThat(card.findElement(By.cssSelector(".node-type")).getAttribute("textContent"))
        .isEqualTo("Audit stamp");
    // the card's line is the one its descriptor names: lead, then level and note
    assertThat(card.findElement(By.cssSelector(".node-summary")).getAttribute("textContent"))
        .isEqualTo("Stamp warn · {{trigger.id}}");
    assertThat(
            browser
                .findElement(By.cssSelector(".react-flow__node[data-id='call'] .node-summary"))
                .getAttribute("textContent"))
        .isEqualTo("POST https://hooks.example.com/in");
    page.selectNode("stamp");
    assertThat(browser.findElement(By.cssSelector("label[for=config-note]")).getText())
        .isEqualTo("Note *");
    WebElement note = browser.findElement(By.id("config-note"));
    assertThat(note.getAttribute("value")).isEqualTo("{{trigger.id}}");
    assertThat(note.getAttribute("maxlength")).isEqualTo("200");
    assertThat(browser.findElement(By.id("config-note-help")).getText()).isEqualTo("what to stamp");
    assertThat(
            browser.findElements(
                By.cssSelector("select[aria-label='Insert a variable into Note']")))
        .hasSize(1);
    Select level = new Select(browser.findElement(By.id("config-level")));
    assertThat(level.getOptions())
        .extracting(WebElement::getText)
        .containsExactly("—", "info", "warn");
    assertThat(level.getFirstSelectedOption().getText()).isEqualTo("warn");

    // emptied on screen, its required field is named by the checks
    WebElement emptied = wait.until(ExpectedConditions.elementToBeClickable(By.id("config-note")));
    emptied.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"));
    emptied.sendKeys(org.openqa.selenium.Keys.DELETE);
    browser.findElement(By.xpath("//button[text()='Validate']")).click();
    wait.until(
        d ->
            d.findElement(By.xpath("//label[@for='config-note']/parent::div"))
                .getAttribute("class")
                .contains("invalid"));
    assertThat(
            browser
                .findElement(By.xpath("//label[@for='config-note']/parent::div"))
                .findElement(By.cssSelector(".field-problem"))
                .getText())
        .contains("required");

    // a header's value is typed as a password when the service seals it, by the rule it serves
    browser.findElement(By.cssSelector(".react-flow__node[data-id='call'] .node-label")).click();
    wait.until(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector("input[aria-label='Headers: name 2']")));
    Map<String, String> typed = new java.util.HashMap<>();
    for (int row = 1; row <= 2; row++) {
      String name =
          browser
              .findElement(By.cssSelector("input[aria-label='Headers: name " + row + "']"))
              .getAttribute("value");
      typed.put(
          name,
          browser
              .findElement(By.cssSelector("input[aria-label='Headers: value " + row + "']"))
              .getAttribute("type"));
    }
    assertThat(typed).containsEntry("X-Api-Key", "password").containsEntry("X-Cookie-Jar", "text");

    page.screenshot("form");
  }
}
