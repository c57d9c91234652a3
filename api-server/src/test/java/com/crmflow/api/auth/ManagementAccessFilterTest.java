package com.crmflow.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.web.ApiException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.servlet.ModelAndView;

/**
 * The guard of the management endpoints as a unit, for the setting the running service of the API
 * tests does not have: no admin token at all (OperabilityTest runs it with one).
 */
class ManagementAccessFilterTest {

  private final List<Exception> refusals = new ArrayList<>();
  private final List<String> securityEvents = new ArrayList<>();

  private ManagementAccessFilter filter(String adminToken) {
    Map<String, String> settings = new HashMap<>();
    if (adminToken != null) {
      settings.put("crm.admin-token", adminToken);
    }
    CrmProperties properties =
        new Binder(new MapConfigurationPropertySource(settings))
            .bindOrCreate("crm", CrmProperties.class);
    return new ManagementAccessFilter(
        properties,
        (request, response, handler, e) -> {
          refusals.add(e);
          return new ModelAndView();
        },
        (request, reason) -> securityEvents.add(request.getRequestURI() + ": " + reason));
  }

  /** Whether the call went on to the endpoint. */
  private boolean passes(ManagementAccessFilter filter, String path, String authorization)
      throws Exception {
    MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
    if (authorization != null) {
      request.addHeader("Authorization", authorization);
    }
    MockFilterChain chain = new MockFilterChain();
    filter.doFilter(request, new MockHttpServletResponse(), chain);
    return chain.getRequest() != null;
  }

  @Test
  void withoutAnAdminTokenOnlyHealthIsThere() throws Exception {
    ManagementAccessFilter filter = filter(null);
    assertThat(passes(filter, "/actuator/health", null)).isTrue();
    assertThat(passes(filter, "/actuator/health/readiness", null)).isTrue();
    assertThat(passes(filter, "/api/v1/contacts", "Bearer anything")).isTrue();
    for (String path : List.of("/actuator/prometheus", "/actuator/metrics", "/actuator")) {
      assertThat(passes(filter, path, "Bearer ")).as(path).isFalse();
      assertThat(passes(filter, path, null)).as(path).isFalse();
    }
    assertThat(refusals)
        .hasSize(6)
        .allSatisfy(
            e -> assertThat(((ApiException) e).status().value()).as(e.getMessage()).isEqualTo(404));
  }

  @Test
  void withOneItIsTheKey() throws Exception {
    ManagementAccessFilter filter = filter("s3cret");
    assertThat(passes(filter, "/actuator/prometheus", "Bearer s3cret")).isTrue();
    assertThat(passes(filter, "/actuator/prometheus", "Bearer s3cre")).isFalse();
    assertThat(passes(filter, "/actuator/healthx", null)).isFalse();
    assertThat(refusals)
        .hasSize(2)
        .allSatisfy(e -> assertThat(((ApiException) e).status().value()).isEqualTo(401));
    assertThat(securityEvents)
        .containsExactly(
            "/actuator/prometheus: a wrong admin token",
            "/actuator/healthx: no Authorization header");
  }
}
