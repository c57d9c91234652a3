package com.crmflow.api.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.ApiTest.TenantClient;
import com.crmflow.api.support.ConsolePage;
import com.crmflow.api.support.LocalHttpServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A test of the console in headless Chromium at 1440×900, against this running service, with a real
 * HTTP peer on loopback for the flows to call. Each test's screenshots are named {@code
 * <prefix>-<test method>-*.png} in target/console.
 */
abstract class ConsoleTest extends ApiTest {

  protected ConsolePage page;
  protected ChromeDriver browser;
  protected WebDriverWait wait;
  protected LocalHttpServer peer;

  /** What the class's screenshots are named by. */
  protected abstract String screenshotPrefix();

  @BeforeEach
  void openConsole(TestInfo info) throws Exception {
    peer = new LocalHttpServer();
    page =
        ConsolePage.open(
            baseUrl(), screenshotPrefix() + "-" + info.getTestMethod().orElseThrow().getName());
    browser = page.browser();
    browser.manage().window().setSize(new Dimension(1440, 900));
    wait = page.await();
  }

  /** Stores this canvas as the flow's next version, through the API. */
  protected void save(TenantClient tenant, String seq, Map<String, Object> canvas) {
    ApiResponse saved = tenant.api().put("/api/sequences/" + seq + "/canvas", canvas);
    assertThat(saved.status()).as(saved.toString()).isEqualTo(200);
  }

  /** Signs in with the tenant's key and opens the flow's canvas, once its nodes are drawn. */
  protected void openCanvas(TenantClient tenant, String seq, int nodes) {
    page.signIn(tenant.key());
    page.go("/sequences/" + seq + "/canvas");
    wait.until(d -> page.nodeIds().size() == nodes);
  }

  /** The names in the list of flows, read in one go (the list re-renders as it loads). */
  @SuppressWarnings("unchecked")
  protected List<String> flowNames() {
    return (List<String>)
        browser.executeScript(
            "return [...document.querySelectorAll('tr[data-flow]')].map(r => r.dataset.flow);");
  }

  @AfterEach
  void closeConsole() {
    if (page != null) {
      page.close();
    }
    peer.close();
  }
}
