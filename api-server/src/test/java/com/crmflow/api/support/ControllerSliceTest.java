package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;

import com.crmflow.api.CrmApiApplication;
import com.crmflow.api.access.Caller;
import com.crmflow.api.apikey.ApiKeyService;
import com.crmflow.api.audit.AuditInterceptor;
import com.crmflow.api.audit.SecurityEventLog;
import com.crmflow.api.settings.CrmProperties;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.junit.jupiter.SpringExtension;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the controller slice tests ({@code @WebMvcTest} of one controller): the service's web
 * layer as it runs (its problem details advice, interceptors, filters, argument resolvers, JSON
 * settings and {@code crm.*} settings) around that controller, without a database or a workflow
 * engine. Such a test checks what the controller itself decides, its validation and its error
 * answers; the stores behind it are Mockito mocks, and the test asserts that a refused request
 * never reached them. What a request changes in the stores is the subject of the full-service tests
 * ({@link ApiTest}).
 *
 * <p>A request with {@code Authorization: Bearer} {@link #KEY} is a caller of tenant {@link
 * #TENANT} with the scopes {@link #scopes} holds (every scope unless a test narrows it).
 */
// a test class (SpringExtension): so the full-service tests' scan leaves WebLayer out
@ExtendWith(SpringExtension.class)
@ContextConfiguration(classes = ControllerSliceTest.WebLayer.class)
// a datasource URL and a Temporal target of its own keep the embedded PostgreSQL and Temporal dev
// server from starting (EmbeddedInfrastructure starts each unless its target is set): the slice
// has neither, and nothing in it connects to these addresses
@TestPropertySource(
    properties = {
      "spring.datasource.url=jdbc:postgresql://slice-test.invalid/none",
      "spring.temporal.connection.target=slice-test.invalid:7233"
    })
public abstract class ControllerSliceTest {

  public static final String KEY = "slice-test-key";
  public static final String BEARER = "Bearer " + KEY;
  public static final UUID TENANT = UUID.fromString("00000000-0000-4000-8000-00000000a11c");

  /**
   * What {@code @WebMvcTest} scans: the web components of the service's packages (its type filter
   * picks them), not the application class, which would bring in the in-process worker. The
   * idempotency interceptor stores answers and the API-write causes interceptor reads runs and the
   * event outbox, so both stay with the full-service tests.
   */
  @Configuration(proxyBeanMethods = false)
  @EnableConfigurationProperties(CrmProperties.class)
  @ComponentScan(
      basePackageClasses = CrmApiApplication.class,
      excludeFilters = {
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
        @ComponentScan.Filter(
            type = FilterType.REGEX,
            pattern = {
              "com\\.crmflow\\.api\\.idempotency\\..*",
              "com\\.crmflow\\.api\\.trigger\\.ApiWriteCauses"
            })
      })
  static class WebLayer {}

  @Autowired protected MockMvc mvc;

  @MockitoBean protected ApiKeyService apiKeys;
  @MockitoBean protected AuditInterceptor audit;
  @MockitoBean protected SecurityEventLog securityEvents;

  /** The scopes of {@link #KEY}'s caller. */
  protected Set<String> scopes = Set.of("*");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @BeforeEach
  void aKeyAndAnAuditThatLetsRequestsThrough() throws Exception {
    when(apiKeys.authenticate(any()))
        .thenAnswer(
            call ->
                BEARER.equals(call.getArgument(0))
                    ? Optional.of(new Caller(TENANT, UUID.randomUUID(), scopes, null))
                    : Optional.empty());
    when(audit.preHandle(any(), any(), any())).thenReturn(true);
  }

  /**
   * Asserts that the answer is an RFC 9457 problem of this status (content type, status, title and
   * detail) and returns its body.
   */
  protected static JsonNode problem(MvcResult result, int status) throws Exception {
    String body = result.getResponse().getContentAsString();
    assertThat(result.getResponse().getStatus()).as(body).isEqualTo(status);
    assertThat(result.getResponse().getContentType()).startsWith("application/problem+json");
    JsonNode problem = JSON.readTree(body);
    assertThat(problem.at("/status").asInt()).isEqualTo(status);
    assertThat(problem.at("/title").asString()).isNotBlank();
    assertThat(problem.at("/detail").asString()).isNotBlank();
    return problem;
  }
}
