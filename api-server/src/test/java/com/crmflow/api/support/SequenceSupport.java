package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

/** Creating sequences in tests. */
public final class SequenceSupport {

  private SequenceSupport() {}

  public static String automation(ApiClient api, String name) {
    ApiResponse created =
        api.post(
            "/api/v1/sequences",
            Map.of("name", name, "flow_type", "automation", "builder_mode", "visual"));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/sequence/id");
  }

  public static String sequence(ApiClient api, String name) {
    ApiResponse created = api.post("/api/v1/sequences", Map.of("name", name));
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return created.text("/sequence/id");
  }
}
