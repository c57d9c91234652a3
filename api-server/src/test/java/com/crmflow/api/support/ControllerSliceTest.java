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
import java.lang.reflect.Constructor;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mockito;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Controller;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockReset;
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
 *
 * <p>Every slice class shares one context, which holds every controller: each collaborator a
 * controller's constructor takes and the web layer does not define is a Mockito mock ({@link
 * MockedCollaborators}), reset after each test, that a test class takes with {@code @Autowired}. A
 * slice class that declares a {@code @WebMvcTest} or a {@code @MockitoBean} of its own gets a
 * context of its own, one more start of several seconds; the moved cases it would hold save tens of
 * milliseconds each.
 */
// a test class (SpringExtension): so the full-service tests' scan leaves WebLayer out
@ExtendWith(SpringExtension.class)
@WebMvcTest
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
  static class WebLayer {

    @Bean
    static MockedCollaborators mockedCollaborators() {
      return new MockedCollaborators();
    }
  }

  /**
   * Registers a Mockito mock (reset after each test) for each type a controller's constructor takes
   * that no bean of the slice provides, one for the element type of a list it takes.
   */
  static class MockedCollaborators implements BeanDefinitionRegistryPostProcessor {

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
      ListableBeanFactory beans = (ListableBeanFactory) registry;
      Set<Class<?>> missing = new LinkedHashSet<>();
      for (String name : registry.getBeanDefinitionNames()) {
        Class<?> type = beans.getType(name, false);
        if (type == null || !AnnotatedElementUtils.hasAnnotation(type, Controller.class)) {
          continue;
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
          for (int i = 0; i < constructor.getParameterCount(); i++) {
            ResolvableType parameter = ResolvableType.forConstructorParameter(constructor, i);
            Class<?> wanted =
                Collection.class.isAssignableFrom(parameter.toClass())
                    ? parameter.asCollection().getGeneric(0).toClass()
                    : parameter.toClass();
            if (beans.getBeanNamesForType(wanted, true, false).length == 0) {
              missing.add(wanted);
            }
          }
        }
      }
      for (Class<?> type : missing) {
        registry.registerBeanDefinition("sliceMock:" + type.getName(), mockDefinition(type));
      }
    }

    private static <T> RootBeanDefinition mockDefinition(Class<T> type) {
      return new RootBeanDefinition(
          type, () -> Mockito.mock(type, MockReset.withSettings(MockReset.AFTER)));
    }
  }

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
