package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The CRM-Cause header: the run and node a call comes from, set by the service alone. */
class CauseHeaderTest {

  private final UUID run = UUID.randomUUID();

  @Test
  void aValueNamesTheRunAndTheNode() {
    String value = CauseHeader.value(run, "call-1");

    assertThat(value).isEqualTo(run + ":call-1");
    assertThat(CauseHeader.parse(value)).contains(new CauseHeader.Cause(run, "call-1"));
    assertThat(CauseHeader.parse(" " + value + " ")).contains(new CauseHeader.Cause(run, "call-1"));
    // a node id may hold a colon: everything after the run's is the node's
    assertThat(CauseHeader.parse(run + ":a:b")).contains(new CauseHeader.Cause(run, "a:b"));
    assertThat(CauseHeader.parse(run + ":")).contains(new CauseHeader.Cause(run, null));
  }

  @Test
  void aValueNotOfThatFormNamesNothing() {
    assertThat(CauseHeader.parse(null)).isEmpty();
    assertThat(CauseHeader.parse("")).isEmpty();
    assertThat(CauseHeader.parse(run.toString())).isEmpty();
    assertThat(CauseHeader.parse("not-a-run:call")).isEmpty();
  }

  @Test
  void theServicesValueReplacesOneOfTheSameNameInAnyCase() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("crm-cause", UUID.randomUUID() + ":forged");
    headers.put("CRM-CAUSE", "another");
    headers.put("X-Other", "kept");

    CauseHeader.put(headers, CauseHeader.value(run, "call"));

    assertThat(headers)
        .containsExactly(Map.entry("X-Other", "kept"), Map.entry("CRM-Cause", run + ":call"));
  }
}
