package com.crmflow.api.support;

import java.io.IOException;
import java.nio.file.Files;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/** Headless Debian Chromium driven by Selenium, for the tests of what a person sees. */
public final class Browsers {

  private Browsers() {}

  /** A new headless Chromium (installed first if need be), 1440×1000, with a fresh profile. */
  public static ChromeDriver headlessChromium() throws IOException {
    Chromium.ensureInstalled();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(Chromium.BROWSER.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1440,1000",
        "--user-data-dir=" + Files.createTempDirectory("chromium-profile"));
    // the page's console (CSP violations among it), for the tests to read
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    return new ChromeDriver(
        new ChromeDriverService.Builder()
            .usingDriverExecutable(Chromium.DRIVER.toFile())
            .usingAnyFreePort()
            .build(),
        options);
  }
}
