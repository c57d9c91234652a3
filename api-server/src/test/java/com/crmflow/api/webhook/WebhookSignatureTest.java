package com.crmflow.api.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {

  @Test
  void knownAnswer() {
    assertThat(
            WebhookSignature.sign(
                "It's a Secret to Everybody", "Hello, World!".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  }

  @Test
  void theSignatureCoversTheExactBytes() {
    String secret = "It's a Secret to Everybody";
    assertThat(WebhookSignature.sign(secret, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(WebhookSignature.sign(secret, "{\"a\": 1}".getBytes(StandardCharsets.UTF_8)));
  }
}
