package com.crmflow.workflow.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each value fills its part of the url, and only that; values that would move the call fail. */
class UrlTemplateTest {

  private static final Map<String, Object> SCOPE =
      Map.of(
          "trigger",
          Map.ofEntries(
              Map.entry("path_escape", "../../admin/delete-all?x="),
              Map.entry("hash", "123#"),
              Map.entry("params", "123?force=true&"),
              Map.entry("plain", "A-1_b.c~"),
              Map.entry("space", "a b/é"),
              Map.entry("dots", ".."),
              Map.entry("dot", "."),
              Map.entry("host", "partner.example"),
              Map.entry("at", "@evil.example/x"),
              Map.entry("suffix", ".evil.example"),
              Map.entry("port", "8443"),
              Map.entry("url", "https://partner.example/api/orders/7")),
          "http_request_1",
          Map.of("body", Map.of("id", 42)));

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://partner.example/api/orders/{{trigger.path_escape}}/status"
            + " | https://partner.example/api/orders/..%2F..%2Fadmin%2Fdelete-all%3Fx%3D/status",
        "https://partner.example/api/orders/{{trigger.hash}}/status"
            + " | https://partner.example/api/orders/123%23/status",
        "https://partner.example/api/orders/{{trigger.params}}/status"
            + " | https://partner.example/api/orders/123%3Fforce%3Dtrue%26/status",
        "https://partner.example/api?id={{trigger.params}}&x=1"
            + " | https://partner.example/api?id=123%3Fforce%3Dtrue%26&x=1",
        "https://partner.example/api#{{trigger.hash}} | https://partner.example/api#123%23",
        "https://partner.example/{{trigger.plain}}/{{ http_request_1.body.id }}"
            + " | https://partner.example/A-1_b.c~/42",
        "https://partner.example/s/{{trigger.space}} | https://partner.example/s/a%20b%2F%C3%A9",
        "https://partner.example/{{trigger.missing}}/x | https://partner.example//x",
        "https://{{trigger.host}}/api/{{trigger.hash}} | https://partner.example/api/123%23",
        "{{trigger.url}}/status?h={{trigger.hash}}"
            + " | https://partner.example/api/orders/7/status?h=123%23",
        "https://partner.example/api{{trigger.at}} | https://partner.example/api%40evil.example%2Fx",
        "https://partner.example/plain/path | https://partner.example/plain/path"
      })
  void eachValueFillsItsPart(String template, String rendered) {
    assertThat(UrlTemplate.render(template, SCOPE)).isEqualTo(rendered);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://partner.example{{trigger.path_escape}}"
            + " | from https://partner.example:443 to an address that is no url",
        "https://partner.example{{trigger.at}}"
            + " | from https://partner.example:443 to https://evil.example:443"
            + " (through {{trigger.at}})",
        "https://partner.example{{trigger.suffix}}/x"
            + " | from https://partner.example:443 to https://partner.example.evil.example:443",
        "https://partner.example:{{trigger.port}}/x"
            + " | from https://partner.example:443 to https://partner.example:8443",
        "https://partner.example/orders/{{trigger.dots}}/status"
            + " | the url's path holds the segment '..'",
        "https://partner.example/orders/{{trigger.dot}}/status"
            + " | the url's path holds the segment '.'",
        "https://partner.example/a/%2e%2E/b | the url's path holds the segment '%2e%2E'",
        "{{trigger.url}}/../../admin | the url's path holds the segment '..'"
      })
  void valuesThatWouldMoveTheCallAreRefused(String template, String message) {
    assertThatThrownBy(() -> UrlTemplate.render(template, SCOPE))
        .isInstanceOf(UrlTemplate.Refused.class)
        .hasMessageContaining(message);
  }
}
