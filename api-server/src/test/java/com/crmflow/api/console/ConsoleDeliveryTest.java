package com.crmflow.api.console;

import static com.crmflow.api.support.Flows.canvas;
import static com.crmflow.api.support.Flows.edge;
import static com.crmflow.api.support.Flows.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.ConsolePage;
import com.crmflow.api.support.SequenceSupport;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * How the console reaches a browser and fits its window: its files compressed and cached as their
 * names allow (hashed ones for a year, the page itself asked again each time), its scripts within
 * their budget; at 1024×768 a long flow name and the side panel's fields are not cut and nothing
 * scrolls sideways; the optimizer's suggestions are told apart from problems. Screenshots go to
 * target/console (delivery-*.png).
 */
class ConsoleDeliveryTest extends ApiTest {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void theFilesAreSentCompressedAndCachedAsTheirNamesAllow() throws Exception {
    HttpResponse<byte[]> index = fetch("/console/", "br, gzip");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.headers().firstValue("Cache-Control")).hasValue("no-cache");
    String html = new String(fetch("/console/index.html", null).body(), StandardCharsets.UTF_8);
    Matcher script = Pattern.compile("/console/assets/index-[A-Za-z0-9_-]+\\.js").matcher(html);
    assertThat(script.find()).as(html).isTrue();
    String path = script.group();

    HttpResponse<byte[]> plain = fetch(path, null);
    HttpResponse<byte[]> gzip = fetch(path, "gzip");
    HttpResponse<byte[]> brotli = fetch(path, "gzip, deflate, br");
    for (HttpResponse<byte[]> answer : List.of(plain, gzip, brotli)) {
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.headers().firstValue("Cache-Control").orElseThrow())
          .contains("max-age=31536000", "public", "immutable");
    }
    // a cache between keeps the compressed answers apart from the plain one
    for (HttpResponse<byte[]> answer : List.of(gzip, brotli)) {
      assertThat(answer.headers().allValues("Vary")).anyMatch(v -> v.contains("Accept-Encoding"));
    }
    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(gzip.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(brotli.headers().firstValue("Content-Encoding")).hasValue("br");
    // the same script, within its budget gzipped, and smaller still in brotli
    assertThat(gunzip(gzip.body())).isEqualTo(plain.body());
    assertThat(gzip.body().length).isLessThanOrEqualTo(200 * 1024);
    assertThat(brotli.body().length).isLessThan(gzip.body().length);
    assertThat(plain.headers().firstValue("Content-Type").orElseThrow()).contains("javascript");
  }

  @Test
  void at1024By768NothingIsCutOrScrollsSidewaysAndSuggestionsAreNotProblems() throws Exception {
    TenantClient tenant = newTenant("*");
    String name = "Lead nurture for new signups";
    String seq = SequenceSupport.automation(tenant.api(), name);
    assertThat(
            tenant
                .api()
                .put(
                    "/api/sequences/" + seq + "/canvas",
                    canvas(
                        List.of(
                            labelled("hook-w", "webhook_trigger", "Signup", Map.of(), 0, 0),
                            labelled(
                                "call",
                                "http_request",
                                "Call the CRM",
                                Map.of(
                                    "method",
                                    "POST",
                                    "url",
                                    "https://example.com/hook",
                                    "headers",
                                    Map.of("Content-Type", "application/json")),
                                0,
                                160)),
                        List.of(edge("e1", "hook-w", "call"))))
                .status())
        .isEqualTo(200);
    try (ConsolePage page = ConsolePage.open(baseUrl(), "delivery")) {
      ChromeDriver browser = page.browser();
      WebDriverWait wait = page.await();
      page.guarded(
          () -> {
            browser.manage().window().setSize(new Dimension(1024, 768));
            page.signIn(tenant.key());
            page.go("/sequences/" + seq + "/canvas");
            wait.until(d -> page.nodeIds().size() == 2);

            WebElement title = browser.findElement(By.cssSelector(".flow-name"));
            assertThat(title.getText()).isEqualTo(name);
            assertThat(overflow(browser, title))
                .as("the flow's name is not cut")
                .isLessThanOrEqualTo(0);

            page.selectNode("call");
            WebElement header =
                browser.findElement(By.cssSelector("input[aria-label='Headers: name 1']"));
            assertThat(header.getAttribute("value")).isEqualTo("Content-Type");
            assertThat(overflow(browser, header))
                .as("a header's name is not cut")
                .isLessThanOrEqualTo(0);
            WebElement side = browser.findElement(By.cssSelector(".side"));
            assertThat(overflow(browser, side))
                .as("the side panel does not scroll sideways")
                .isLessThanOrEqualTo(0);
            assertThat(
                    (Long)
                        browser.executeScript(
                            "return document.documentElement.scrollWidth - window.innerWidth;"))
                .isLessThanOrEqualTo(0L);
            page.screenshot("canvas-1024");

            // an http_request with nothing checking its answer draws a suggestion, not a problem
            browser.findElement(By.cssSelector(".react-flow__pane")).click();
            page.click(By.xpath("//button[text()='Optimize']"));
            WebElement card =
                wait.until(
                    d ->
                        d.findElement(
                            By.cssSelector(".react-flow__node[data-id='call'] .has-suggestions")));
            assertThat(card.getAttribute("class")).doesNotContain("has-problems");
            String suggestionColour =
                card.findElement(By.cssSelector(".node-suggestion")).getCssValue("color");
            assertThat(suggestionColour).isNotEqualTo("rgba(179, 38, 30, 1)");
            assertThat(card.getCssValue("border-top-color")).isNotEqualTo("rgba(179, 38, 30, 1)");
            assertThat(page.seriousAccessibilityViolations()).as("axe on the canvas").isEmpty();
          });
    }
  }

  /** How far an element's content is wider than the element. */
  private static long overflow(ChromeDriver browser, WebElement element) {
    return (Long)
        browser.executeScript(
            "return arguments[0].scrollWidth - arguments[0].clientWidth;", element);
  }

  private HttpResponse<byte[]> fetch(String path, String acceptEncoding)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl() + path));
    if (acceptEncoding != null) {
      request.header("Accept-Encoding", acceptEncoding);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static byte[] gunzip(byte[] body) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      return in.readAllBytes();
    }
  }
}
