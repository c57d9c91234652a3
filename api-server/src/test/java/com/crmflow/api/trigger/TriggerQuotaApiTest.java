package com.crmflow.api.trigger;

import static com.crmflow.api.support.Flows.chain;
import static com.crmflow.api.support.Flows.node;
import static com.crmflow.api.support.SequenceSupport.activeAutomation;
import static com.crmflow.api.support.SequenceSupport.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.run.RunAdmission;
import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.api.tenant.TriggerQuota;
import jakarta.servlet.FilterChain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * A tenant's quota on its public triggers (429 with the RateLimit fields, per tenant, set through
 * the admin API) and the admission's 503, against the running service.
 */
class TriggerQuotaApiTest extends ApiTest {

  @Autowired private RunAdmission admission;
  @Autowired private TriggerQuotas quotas;
  @Autowired private CrmProperties properties;

  @Test
  void aRefusalIsSentLaterFromATimerWithoutHoldingTheRequestThread() throws Exception {
    TenantClient tenant = newTenant();
    assertThat(quotas.set(tenant.id(), new TriggerQuota(1, 3600))).isTrue();
    TriggerQuotaFilter delayed = new TriggerQuotaFilter(quotas, admission, Duration.ofSeconds(3));
    TriggerQuotaFilter atOnce = new TriggerQuotaFilter(quotas, admission, Duration.ZERO);
    AtomicInteger passedOn = new AtomicInteger();
    FilterChain chain = (request, response) -> passedOn.incrementAndGet();
    try {
      delayed.doFilter(triggerCall(tenant.id()), new MockHttpServletResponse(), chain);
      assertThat(passedOn).as("within the quota").hasValue(1);

      MockHttpServletRequest refused = triggerCall(tenant.id());
      MockHttpServletResponse answer = new MockHttpServletResponse();
      delayed.doFilter(refused, answer, chain);

      // the filter returned on the request's thread with the answer left to its timer
      assertThat(refused.isAsyncStarted()).isTrue();
      assertThat(passedOn).as("not passed on").hasValue(1);
      await().atMost(Patience.EVENTUALLY).until(() -> !refused.isAsyncStarted());
      assertThat(answer.getStatus()).isEqualTo(429);
      assertThat(answer.getContentType()).isEqualTo("application/problem+json");
      assertThat(answer.getHeader("Retry-After")).isEqualTo("3600");
      assertThat(answer.getHeader("RateLimit-Policy")).isEqualTo("\"trigger\";q=1;w=3600");
      assertThat(answer.getHeader("RateLimit")).matches("\"trigger\";r=0;t=\\d+");
      assertThat(answer.getContentAsString())
          .contains("\"status\":429")
          .contains("1 trigger calls per 3600 s is spent");

      MockHttpServletRequest refusedAtOnce = triggerCall(tenant.id());
      MockHttpServletResponse answeredAtOnce = new MockHttpServletResponse();
      atOnce.doFilter(refusedAtOnce, answeredAtOnce, chain);
      assertThat(refusedAtOnce.isAsyncStarted()).isFalse();
      assertThat(answeredAtOnce.getStatus()).isEqualTo(429);
      assertThat(passedOn).hasValue(1);
      assertThat(runsOf(tenant.id())).as("nothing reached the trigger").isZero();
    } finally {
      delayed.close();
      atOnce.close();
      quotas.set(tenant.id(), null);
    }
  }

  @Test
  void aTenantPastItsShareOfTheAdmissionIsRefusedBeforeTheTriggerFromTheTimer() throws Exception {
    TenantClient flooding = newTenant();
    TriggerQuotaFilter filter = new TriggerQuotaFilter(quotas, admission, Duration.ofSeconds(1));
    AtomicInteger passedOn = new AtomicInteger();
    FilterChain chain = (request, response) -> passedOn.incrementAndGet();
    List<UUID> taken = new ArrayList<>();
    try {
      DueRuns.takeShare(admission, flooding.id(), taken);
      assertThat(admission.refusalNow(flooding.id())).isNotNull();

      MockHttpServletRequest refused = triggerCall(flooding.id());
      MockHttpServletResponse answer = new MockHttpServletResponse();
      filter.doFilter(refused, answer, chain);

      // refused within its quota, before the trigger's work, and answered from the timer
      assertThat(refused.isAsyncStarted()).isTrue();
      assertThat(passedOn).as("not passed on to the trigger").hasValue(0);
      await().atMost(Patience.EVENTUALLY).until(() -> !refused.isAsyncStarted());
      assertThat(answer.getStatus()).isEqualTo(503);
      assertThat(answer.getContentType()).isEqualTo("application/problem+json");
      assertThat(answer.getHeader("Retry-After")).isEqualTo("1");
      assertThat(answer.getHeader("RateLimit-Policy")).startsWith("\"trigger\";q=");
      assertThat(answer.getContentAsString())
          .contains("\"status\":503")
          .contains("its share of the runs this process keeps on time is taken");
      assertThat(runsOf(flooding.id())).as("nothing stored").isZero();
    } finally {
      taken.forEach(admission::ended);
      filter.close();
    }
    assertThat(admission.refusalNow(flooding.id())).as("its runs ended: let in again").isNull();
  }

  private static MockHttpServletRequest triggerCall(UUID tenant) {
    MockHttpServletRequest request =
        new MockHttpServletRequest("POST", "/api/webhooks/automation/" + tenant + "/hook");
    request.setAsyncSupported(true);
    return request;
  }

  @Test
  void aTenantOverItsOwnQuotaGets429WithTheRateLimitFieldsWhileAnotherTenantGoesOn() {
    TenantClient limited = newTenant();
    TenantClient neighbour = newTenant();
    String trigger = triggerOf(limited);
    String neighbourTrigger = triggerOf(neighbour);

    ApiResponse set =
        admin()
            .put(
                "/admin/v1/tenants/" + limited.id() + "/trigger-quota",
                Map.of("requests", 3, "window_seconds", 60));
    assertThat(set.status()).as(set.toString()).isEqualTo(200);
    assertThat(set.at("/trigger_quota/requests").asInt()).isEqualTo(3);
    assertThat(set.at("/trigger_quota/window_seconds").asInt()).isEqualTo(60);
    assertThat(set.text("/trigger_quota/source")).isEqualTo("tenant");
    assertThat(storedQuota(limited.id())).isEqualTo(Map.of("requests", 3, "window", 60));

    for (int i = 0; i < 3; i++) {
      ApiResponse ok = fire(limited.id(), trigger);
      assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
      assertThat(ok.header("RateLimit-Policy")).isEqualTo("\"trigger\";q=3;w=60");
      assertThat(ok.header("RateLimit")).startsWith("\"trigger\";r=" + (2 - i) + ";t=");
    }
    ApiResponse refused = fire(limited.id(), trigger);
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.at("/status").asInt()).isEqualTo(429);
    assertThat(refused.text("/detail")).contains("3 trigger calls per 60 s");
    assertThat(Integer.parseInt(refused.header("Retry-After")))
        .as("a token every 20 s")
        .isBetween(1, 20);
    assertThat(refused.header("RateLimit-Policy")).isEqualTo("\"trigger\";q=3;w=60");
    assertThat(refused.header("RateLimit")).matches("\"trigger\";r=0;t=\\d+");
    assertThat(runsOf(limited.id())).as("nothing stored for the refused call").isEqualTo(3);

    // another spelling of the tenant id is refused before the quota (an encoded digit), the same
    // tenant's quota (upper case), or no tenant at all
    String id = limited.id().toString();
    String percentEncoded = "%" + Integer.toHexString(id.charAt(0)) + id.substring(1);
    ApiResponse encoded =
        anonymous()
            .post("/api/webhooks/automation/" + percentEncoded + "/" + trigger, Map.of("n", 1));
    assertThat(encoded.status()).as(encoded.toString()).isEqualTo(400);
    assertThat(encoded.contentType()).startsWith("application/problem+json");
    ApiResponse upperCase =
        anonymous()
            .post("/api/webhooks/automation/" + id.toUpperCase() + "/" + trigger, Map.of("n", 1));
    assertThat(upperCase.status()).as(upperCase.toString()).isEqualTo(429);
    ApiResponse padded =
        anonymous()
            .post("/api/webhooks/automation/0" + id.substring(1) + "x/" + trigger, Map.of("n", 1));
    assertThat(padded.status()).as(padded.toString()).isEqualTo(404);
    assertThat(runsOf(limited.id())).as("no other spelling started a run").isEqualTo(3);

    ApiResponse other = fire(neighbour.id(), neighbourTrigger);
    assertThat(other.status()).as(other.toString()).isEqualTo(200);
    CrmProperties.Trigger.Quota defaults = properties.trigger().quota();
    assertThat(other.header("RateLimit-Policy"))
        .isEqualTo("\"trigger\";q=" + defaults.requests() + ";w=" + defaults.window().getSeconds());
    assertThat(runsOf(neighbour.id())).isEqualTo(1);
  }

  @Test
  void theAdminSetsReadsAndResetsATenantsQuota() {
    TenantClient tenant = newTenant();
    String trigger = triggerOf(tenant);
    String path = "/admin/v1/tenants/" + tenant.id() + "/trigger-quota";
    CrmProperties.Trigger.Quota defaults = properties.trigger().quota();

    ApiResponse initial = admin().get(path);
    assertThat(initial.status()).isEqualTo(200);
    assertThat(initial.text("/trigger_quota/source")).isEqualTo("default");
    assertThat(initial.at("/trigger_quota/requests").asInt()).isEqualTo(defaults.requests());

    ApiResponse invalid = admin().put(path, Map.of("requests", 0, "window_seconds", 7200));
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.contentType()).startsWith("application/problem+json");
    assertThat(invalid.rawBody()).contains("requests").contains("window_seconds");
    ApiResponse missing = admin().put(path, Map.of("requests", 5));
    assertThat(missing.status()).isEqualTo(400);
    assertThat(storedQuota(tenant.id())).as("nothing stored").isEmpty();

    assertThat(admin().put(path, Map.of("requests", 1, "window_seconds", 3600)).status())
        .isEqualTo(200);
    assertThat(admin().get(path).text("/trigger_quota/source")).isEqualTo("tenant");
    assertThat(fire(tenant.id(), trigger).status()).isEqualTo(200);
    assertThat(fire(tenant.id(), trigger).status()).as("the override is in force").isEqualTo(429);

    ApiResponse reset = admin().delete(path);
    assertThat(reset.status()).isEqualTo(200);
    assertThat(reset.text("/trigger_quota/source")).isEqualTo("default");
    assertThat(storedQuota(tenant.id())).isEmpty();
    ApiResponse afterReset = fire(tenant.id(), trigger);
    assertThat(afterReset.status()).as("the default is in force again").isEqualTo(200);
    assertThat(afterReset.header("RateLimit-Policy"))
        .isEqualTo("\"trigger\";q=" + defaults.requests() + ";w=" + defaults.window().getSeconds());

    UUID nobody = UUID.randomUUID();
    assertThat(admin().get("/admin/v1/tenants/" + nobody + "/trigger-quota").status())
        .isEqualTo(404);
    assertThat(
            admin()
                .put(
                    "/admin/v1/tenants/" + nobody + "/trigger-quota",
                    Map.of("requests", 5, "window_seconds", 1))
                .status())
        .isEqualTo(404);
    assertThat(anonymous().put(path, Map.of("requests", 5, "window_seconds", 1)).status())
        .as("the admin token is required")
        .isEqualTo(401);
  }

  @Test
  void aTenantOverItsShareOfTheAdmissionGets503WithoutAThreadWhileAnotherTenantIsAdmitted()
      throws InterruptedException {
    TenantClient flooding = newTenant();
    TenantClient quiet = newTenant();
    String trigger = triggerOf(flooding);
    String quietTrigger = triggerOf(quiet);
    int limit = properties.trigger().admission().maxDueRuns();
    List<UUID> taken = new ArrayList<>();
    try {
      // runs of earlier tests that end in the meantime make room again: the flooding tenant takes
      // its share once more before each call, and a call let in through that room is counted
      ApiResponse refused = null;
      int letIn = 0;
      for (int attempt = 0; attempt < 5 && refused == null; attempt++) {
        DueRuns.takeShare(admission, flooding.id(), taken);
        assertThat(admission.decide(flooding.id(), UUID.randomUUID()).reason()).isEqualTo("due");
        ApiResponse answer = fire(flooding.id(), trigger);
        if (answer.status() == 200) {
          letIn++;
        } else {
          refused = answer;
        }
      }
      assertThat(taken).hasSizeLessThanOrEqualTo(limit + 5);

      assertThat(refused).as("a call past the tenant's share is refused").isNotNull();
      assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
      assertThat(refused.contentType()).startsWith("application/problem+json");
      assertThat(refused.at("/status").asInt()).isEqualTo(503);
      assertThat(refused.text("/detail")).contains("at capacity").contains("Retry-After");
      assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 2);
      assertThat(runsOf(flooding.id())).as("nothing stored for the refused call").isEqualTo(letIn);

      ApiResponse admitted = fire(quiet.id(), quietTrigger);
      assertThat(admitted.status()).as(admitted.toString()).isEqualTo(200);
      assertThat(runsOf(quiet.id())).isEqualTo(1);
    } finally {
      taken.forEach(admission::ended);
    }
  }

  /**
   * Takes due runs for the tenant until the admission refuses it as "due", as a flood of its calls
   * does (its calls are let in on its slots of the pace: the loop sleeps between slots).
   */
  private ApiResponse fire(UUID tenant, String trigger) {
    return anonymous().post("/api/webhooks/automation/" + tenant + "/" + trigger, Map.of("n", 1));
  }

  /** An active automation of the tenant: webhook → wait a day (its runs stay quiet). */
  private static String triggerOf(TenantClient tenant) {
    String trigger = uniqueId("quota");
    activeAutomation(tenant.api(), chain(trigger, node("wait", "delay", Map.of("delayDays", 1))));
    return trigger;
  }

  private int runsOf(UUID tenant) {
    return jdbc.sql("select count(*) from automation_run where tenant_id = :tenant")
        .param("tenant", tenant)
        .query(Integer.class)
        .single();
  }

  /** The tenant's stored quota columns; empty when both are null. */
  private Map<String, Integer> storedQuota(UUID tenant) {
    Map<String, Integer> stored = new HashMap<>();
    jdbc.sql(
            """
            select trigger_quota_requests, trigger_quota_window_seconds
            from tenant where id = :tenant
            """)
        .param("tenant", tenant)
        .query(
            (rs, row) -> {
              if (rs.getObject(1) != null) {
                stored.put("requests", rs.getInt(1));
                stored.put("window", rs.getInt(2));
              }
              return row;
            })
        .list();
    return stored;
  }
}
