package com.crmflow.api.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in headless Chromium, driven as a person uses it: every step waits for what a person
 * waits for (the page's ready marker, a control that can be used, a text on the screen), never for
 * a fixed time. A page is ready when its {@code main} element says {@code data-ready="true"}: the
 * console sets it once the page's data has arrived and it takes input (docs/console.md).
 */
public final class ConsolePage implements AutoCloseable {

  private static final Path SCREENSHOTS = Path.of("target", "console");

  private final ChromeDriver browser;
  private final WebDriverWait wait;
  private final String baseUrl;
  private final String screenshotPrefix;

  private ConsolePage(ChromeDriver browser, String baseUrl, String screenshotPrefix) {
    this.browser = browser;
    this.wait = new WebDriverWait(browser, Patience.EVENTUALLY);
    browser.manage().timeouts().scriptTimeout(Patience.EVENTUALLY);
    this.baseUrl = baseUrl;
    this.screenshotPrefix = screenshotPrefix;
  }

  /** A new headless Chromium on the console of the service at {@code baseUrl}. */
  public static ConsolePage open(String baseUrl, String screenshotPrefix) throws IOException {
    Files.createDirectories(SCREENSHOTS);
    return new ConsolePage(Browsers.headlessChromium(), baseUrl, screenshotPrefix);
  }

  public ChromeDriver browser() {
    return browser;
  }

  /** The wait every step uses, for the conditions a test names itself. */
  public WebDriverWait await() {
    return wait;
  }

  /** Signs in with the key on the sign-in page and waits for the list of flows. */
  public void signIn(String key) {
    browser.get(baseUrl + "/console");
    type(By.id("api-key"), key);
    click(By.xpath("//button[text()='Sign in']"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".who")));
    awaitReady();
  }

  /**
   * Goes to a route of the console (as typed into the address bar: {@code /sequences/<id>/canvas})
   * and waits until the page there is ready.
   */
  public void go(String route) {
    String url = baseUrl + "/console/#" + route;
    List<WebElement> before = browser.findElements(By.tagName("main"));
    if (url.equals(browser.getCurrentUrl())) {
      browser.navigate().refresh();
    } else {
      browser.get(url);
    }
    // a route change within the page keeps the document: the page left behind goes first
    if (!before.isEmpty()) {
      wait.until(ExpectedConditions.stalenessOf(before.get(0)));
    }
    awaitReady();
  }

  /** Clicks a control that leads to another page, and waits until that page is ready. */
  public void clickThrough(By target) {
    WebElement left = browser.findElement(By.tagName("main"));
    click(target);
    wait.until(ExpectedConditions.stalenessOf(left));
    awaitReady();
  }

  /** Waits until the page on screen has its data and takes input. */
  public void awaitReady() {
    wait.until(
        ExpectedConditions.presenceOfElementLocated(By.cssSelector("main[data-ready='true']")));
  }

  /** Whether the page on screen is ready (no wait). */
  public boolean ready() {
    return !browser.findElements(By.cssSelector("main[data-ready='true']")).isEmpty();
  }

  public void click(By target) {
    wait.until(ExpectedConditions.elementToBeClickable(target)).click();
  }

  /** Replaces the text of a field with {@code text}. */
  public void type(By field, String text) {
    WebElement element = wait.until(ExpectedConditions.elementToBeClickable(field));
    element.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
    element.sendKeys(text);
  }

  /** The text of an element, once it is on the page. */
  public String text(By what) {
    return wait.until(ExpectedConditions.presenceOfElementLocated(what)).getText();
  }

  /** Waits until the page's status line says {@code text}. */
  public void waitForStatus(String text) {
    wait.until(
        ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("[role=status]"), text));
  }

  /** The ids of the canvas's nodes, in the order the canvas lists them. */
  public List<String> nodeIds() {
    return browser.findElements(By.cssSelector(".react-flow__node")).stream()
        .map(n -> n.getAttribute("data-id"))
        .toList();
  }

  public int edgeCount() {
    return browser.findElements(By.cssSelector(".react-flow__edge")).size();
  }

  /**
   * Waits until the editor's checks have judged the canvas on screen and the cards have taken the
   * size their problems give them: the count is not checking, and every node's box reads the same
   * twice in a row. A drag from a handle starts where the handle then is.
   */
  public void awaitChecked() {
    wait.until(
        ExpectedConditions.presenceOfElementLocated(
            By.cssSelector(".check-count[data-checking='false']")));
    String[] last = {null};
    wait.until(
        d -> {
          String now =
              String.valueOf(
                  browser.executeScript(
                      "return [...document.querySelectorAll('.react-flow__node')].map(n => {"
                          + " const r = n.getBoundingClientRect();"
                          + " return [r.x, r.y, r.width, r.height].join(','); }).join('|')"
                          + " + (document.querySelector(\".check-count[data-checking='false']\")"
                          + " ? '' : '!');"));
          boolean still = now.equals(last[0]) && !now.endsWith("!");
          last[0] = now;
          return still;
        });
  }

  /**
   * Draws an edge with the mouse: from the source's bottom handle (the one of this outcome, for a
   * node that branches; null for its only one) to the target's top handle, once the checks have
   * sized the cards; waits for the edge.
   */
  public void connect(String source, String outcome, String target) {
    awaitChecked();
    WebElement from =
        browser.findElement(
            By.cssSelector(
                ".react-flow__node[data-id='"
                    + source
                    + "'] .react-flow__handle-bottom"
                    + (outcome == null ? "" : "[data-handleid='" + outcome + "']")));
    WebElement to =
        browser.findElement(
            By.cssSelector(".react-flow__node[data-id='" + target + "'] .react-flow__handle-top"));
    int before = edgeCount();
    new Actions(browser)
        .moveToElement(from)
        .clickAndHold()
        .moveByOffset(5, 5)
        .moveToElement(to)
        .moveByOffset(1, 1)
        .moveToElement(to)
        .release()
        .perform();
    wait.until(d -> edgeCount() == before + 1);
  }

  /** Clicks a node's card and waits for its settings. */
  public void selectNode(String id) {
    click(By.cssSelector(".react-flow__node[data-id='" + id + "'] .node-label"));
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("form.config")));
  }

  /** axe-core's script, from the console's npm packages (the console's build installs them). */
  private static final Path AXE =
      Path.of("..", "console", "node_modules", "axe-core", "axe.min.js").toAbsolutePath();

  /**
   * Runs axe-core on the page as it is (its script put in the page from here, past the console's
   * Content-Security-Policy, which governs the page's own scripts) and answers the violations of
   * impact serious or critical, each as "rule (impact): help: the elements".
   */
  @SuppressWarnings("unchecked")
  public List<String> seriousAccessibilityViolations() throws IOException {
    browser.executeScript(Files.readString(AXE));
    List<String> found =
        (List<String>)
            browser.executeAsyncScript(
                """
                const done = arguments[arguments.length - 1];
                axe.run(document, {resultTypes: ['violations']}).then(r => done(
                    r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                        .map(v => v.id + ' (' + v.impact + '): ' + v.help + ': '
                            + v.nodes.map(n => n.target.join(' ')).join(', '))),
                    e => done(['axe failed: ' + e]));
                """);
    return found;
  }

  /** Keeps a screenshot as target/console/{prefix}-{name}.png. */
  public void screenshot(String name) throws IOException {
    Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
    Files.copy(
        shot,
        SCREENSHOTS.resolve(screenshotPrefix + "-" + name + ".png"),
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** Steps of a test that uses the page. */
  public interface Steps {
    void run() throws Exception;
  }

  /**
   * Runs the steps; on a failure keeps a screenshot ({@code -failure}) and adds the page's text to
   * the message, so that a failed run says what the page showed.
   */
  public void guarded(Steps steps) throws Exception {
    try {
      steps.run();
    } catch (AssertionError | RuntimeException e) {
      screenshot("failure");
      String page;
      try {
        page = browser.findElement(By.tagName("body")).getText();
      } catch (RuntimeException unreadable) {
        page = "(unreadable: " + unreadable.getMessage() + ")";
      }
      throw new AssertionError(e.getMessage() + "\nThe page read:\n" + page, e);
    }
  }

  @Override
  public void close() {
    browser.quit();
  }
}
