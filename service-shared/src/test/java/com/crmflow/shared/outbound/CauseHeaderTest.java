package com.crmflow.shared.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.shared.secret.SecretCipher;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The headers of a run's outbound call: CRM-Cause, a token only this deployment reads, for the
 * run's tenant, for an hour; Idempotency-Key, stable per run and node, no clue to the run.
 */
class CauseHeaderTest {

  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");

  private final UUID run = UUID.randomUUID();
  private final UUID tenant = UUID.randomUUID();
  private final SecretCipher cipher = new SecretCipher(KEY, "");
  private final CauseHeader header = at(NOW, cipher);

  private static CauseHeader at(Instant instant, SecretCipher cipher) {
    return new CauseHeader(cipher, Clock.fixed(instant, ZoneOffset.UTC));
  }

  @Test
  void aTokenNamesTheRunAndNodeToThisDeploymentForTheRunsTenantOnly() {
    CauseHeader.Cause cause = new CauseHeader.Cause(run, "call:1");
    String token = header.value(tenant, cause).orElseThrow();

    assertThat(token)
        .doesNotContain(run.toString())
        .doesNotContain("call")
        .matches("[A-Za-z0-9_-]+");
    assertThat(header.read(tenant, token)).contains(cause);
    assertThat(header.read(tenant, " " + token + " ")).contains(cause);
    // each call makes its own
    assertThat(header.value(tenant, cause).orElseThrow()).isNotEqualTo(token);
    // another tenant, another deployment's key: nothing
    assertThat(header.read(UUID.randomUUID(), token)).isEmpty();
    byte[] other = new byte[32];
    other[0] = 7;
    assertThat(
            at(NOW, new SecretCipher(Base64.getEncoder().encodeToString(other), ""))
                .read(tenant, token))
        .isEmpty();
  }

  @Test
  void aTokenIsReadForAnHourAfterItWasMade() {
    String token = header.value(tenant, new CauseHeader.Cause(run, "call")).orElseThrow();

    assertThat(at(NOW.plus(CauseHeader.LIFETIME), cipher).read(tenant, token)).isPresent();
    assertThat(at(NOW.plus(CauseHeader.LIFETIME).plusSeconds(1), cipher).read(tenant, token))
        .isEmpty();
    // a token from a clock ahead of this one: the same hour either way
    assertThat(at(NOW.minus(Duration.ofMinutes(59)), cipher).read(tenant, token)).isPresent();
  }

  @Test
  void whatNoRunOfThisDeploymentSentNamesNothing() {
    for (String forged :
        List.of("", " ", run + ":call", run.toString(), "not-a-token", "AAAA", "%%%")) {
      assertThat(header.read(tenant, forged)).as(forged).isEmpty();
    }
    assertThat(header.read(tenant, null)).isEmpty();
    // a sealed node secret of the same tenant is no token
    String sealed = cipher.seal(tenant, "0:" + run + ":call");
    assertThat(header.read(tenant, sealed)).isEmpty();
  }

  @Test
  void aProcessWithoutAKeySendsNoTokenAndReadsNone() {
    SecretCipher none = new SecretCipher("", "");
    CauseHeader without = at(NOW, none);

    assertThat(without.value(tenant, new CauseHeader.Cause(run, "call"))).isEmpty();
    String token = header.value(tenant, new CauseHeader.Cause(run, "call")).orElseThrow();
    assertThat(without.read(tenant, token)).isEmpty();
  }

  @Test
  void theIdempotencyKeyIsStablePerRunAndNodeAndNoClueToTheRun() {
    String key = header.idempotencyKey(tenant, run + ":call");

    assertThat(key).doesNotContain(run.toString()).matches("[A-Za-z0-9_-]{43}");
    assertThat(at(NOW.plusSeconds(3600 * 24), cipher).idempotencyKey(tenant, run + ":call"))
        .isEqualTo(key);
    assertThat(header.idempotencyKey(tenant, run + ":other")).isNotEqualTo(key);
    assertThat(header.idempotencyKey(UUID.randomUUID(), run + ":call")).isNotEqualTo(key);
    byte[] other = new byte[32];
    other[0] = 7;
    assertThat(
            at(NOW, new SecretCipher(Base64.getEncoder().encodeToString(other), ""))
                .idempotencyKey(tenant, run + ":call"))
        .isNotEqualTo(key);
  }

  @Test
  void aRunAndNodeParse() {
    assertThat(CauseHeader.Cause.parse(run + ":call-1"))
        .contains(new CauseHeader.Cause(run, "call-1"));
    // a node id may hold a colon: everything after the run's is the node's
    assertThat(CauseHeader.Cause.parse(run + ":a:b")).contains(new CauseHeader.Cause(run, "a:b"));
    assertThat(CauseHeader.Cause.parse(run + ":")).contains(new CauseHeader.Cause(run, null));
    assertThat(CauseHeader.Cause.parse(null)).isEmpty();
    assertThat(CauseHeader.Cause.parse(run.toString())).isEmpty();
    assertThat(CauseHeader.Cause.parse("not-a-run:call")).isEmpty();
  }

  @Test
  void theServicesValueReplacesOneOfTheSameNameInAnyCase() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("crm-cause", UUID.randomUUID() + ":forged");
    headers.put("CRM-CAUSE", "another");
    headers.put("X-Other", "kept");

    CauseHeader.put(headers, "token");
    assertThat(headers)
        .containsExactly(Map.entry("X-Other", "kept"), Map.entry("CRM-Cause", "token"));

    CauseHeader.put(headers, null);
    assertThat(headers).containsExactly(Map.entry("X-Other", "kept"));
  }
}
