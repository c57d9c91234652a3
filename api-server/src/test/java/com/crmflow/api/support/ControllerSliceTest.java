package com.crmflow.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.crmflow.api.CrmApiApplication;
import com.crmflow.api.access.Caller;
import com.crmflow.api.access.Scope;
import com.crmflow.api.apikey.ApiKeyService;
import com.crmflow.api.audit.AuditInterceptor;
import com.crmflow.api.audit.SecurityEventLog;
import com.crmflow.api.settings.CrmProperties;
import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mockito.Mockito;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.FilterType;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockReset;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.context.junit.jupiter.SpringExtension;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of the controller slice tests, itself the {@code @WebMvcTest}: the service's web layer as it
 * runs (its problem details advice, interceptors, filters, argument resolvers, JSON settings and
 * {@code crm.*} settings) around every controller, without a database or a workflow engine. A slice
 * class checks what its controller itself decides, its scopes, its validation and its error
 * answers; the stores behind it are Mockito mocks, and the test asserts that a refused request
 * never reached them. What a request changes in the stores is the subject of the full-service tests
 * ({@link ApiTest}).
 *
 * <p>A request with {@code Authorization: Bearer} {@link #KEY} is a caller of tenant {@link
 * #TENANT} with the scopes {@link #scopes} holds (every scope unless a test narrows it).
 *
 * <p>Every slice class shares one context, which holds every controller: each collaborator a
 * controller's constructor takes and the web layer does not define is a Mockito mock ({@link
 * MockedCollaborators}), reset before each test, that a test class takes with {@code @Autowired}. A
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

  /** An id in a path, for the requests that never reach a store. */
  protected static final String ANY_ID = "00000000-0000-0000-0000-000000000001";

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
   * Registers a Mockito mock (reset before each test) for each type a controller's constructor
   * takes that no bean of the slice provides, one for the element type of a list it takes.
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
        registry.registerBeanDefinition(MOCK_PREFIX + type.getName(), mockDefinition(type));
      }
    }

    // reset before each test, so a test sees only its own calls, not the context start's
    private static <T> RootBeanDefinition mockDefinition(Class<T> type) {
      return new RootBeanDefinition(
          type, () -> Mockito.mock(type, MockReset.withSettings(MockReset.BEFORE)));
    }
  }

  private static final String MOCK_PREFIX = "sliceMock:";

  @Autowired protected MockMvc mvc;
  @Autowired private ApplicationContext context;

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

  /** This request with the caller's key ({@link #BEARER}), answered. */
  protected MvcResult send(MockHttpServletRequestBuilder request) throws Exception {
    return mvc.perform(request.header("Authorization", BEARER)).andReturn();
  }

  /** A request of this method and path, with this JSON body unless null. */
  protected static MockHttpServletRequestBuilder request(String method, String path, String body) {
    MockHttpServletRequestBuilder request =
        MockMvcRequestBuilders.request(HttpMethod.valueOf(method), path);
    return body == null ? request : request.contentType(MediaType.APPLICATION_JSON).content(body);
  }

  /** Asserts that no request of this test reached a collaborator of any controller. */
  protected void nothingReachedTheStores() {
    for (String name : context.getBeanDefinitionNames()) {
      if (name.startsWith(MOCK_PREFIX)) {
        Object store = context.getBean(name);
        // the web layer's own mocks (the key lookup, the audit) are reached by every request
        if (store != apiKeys && store != audit && store != securityEvents) {
          verifyNoInteractions(store);
        }
      }
    }
  }

  /**
   * Each endpoint of the slice class's {@code static Stream<Arguments> endpoints()} (method, path,
   * body or null, scope) answers a key that has every scope but its own with a 403 problem naming
   * that scope, reaching no store, and lets a key that has only its own scope through.
   */
  @ParameterizedTest(name = "{0} {1} needs {3}")
  @MethodSource("endpoints")
  void endpointNeedsItsScope(String method, String path, String body, Scope scope)
      throws Exception {
    scopes =
        Arrays.stream(Scope.values())
            .filter(s -> s != scope)
            .map(Scope::value)
            .collect(Collectors.toSet());
    MvcResult refused = send(request(method, path, body));
    assertThat(refused.getResponse().getStatus()).isEqualTo(403);
    assertThat(refused.getResponse().getContentType()).startsWith("application/problem+json");
    assertThat(JSON.readTree(refused.getResponse().getContentAsString()).at("/detail").asString())
        .contains("'" + scope.value() + "'");
    nothingReachedTheStores();

    scopes = Set.of(scope.value());
    assertThat(send(request(method, path, body)).getResponse().getStatus()).isNotIn(401, 403);
  }

  /**
   * The requests of the slice class that its controller refuses itself, none unless the class lists
   * them in a {@code static Stream<Arguments> refusedRequests()}: method, path, body or null, the
   * field the problem names, and a part of that field's message or null.
   */
  static Stream<Arguments> refusedRequests() {
    return Stream.empty();
  }

  /**
   * The refusals of a large list at this path (rows for {@code refusedRequests()}): past the first
   * 10,000 rows a page needs the cursor, only a cursor a page gave is one, and never with an
   * offset.
   */
  protected static Stream<Arguments> largeListRefusals(String path) {
    return Stream.of(
        Arguments.of("GET", path + "?offset=9990&limit=20", null, "offset", "next_after"),
        Arguments.of("GET", path + "?after=not-a-cursor", null, "after", "is not a cursor"),
        Arguments.of(
            "GET",
            path + "?after=MTAuYQ&offset=5",
            null,
            "after",
            "cannot be combined with offset"));
  }

  /** Each of the slice class's {@code refusedRequests()} is a 400 problem naming its field. */
  @ParameterizedTest(name = "{0} {1} is 400 naming {3}", allowZeroInvocations = true)
  @MethodSource("refusedRequests")
  void refusedWith400NamingTheFieldAndReachingNoStore(
      String method, String path, String body, String field, String message) throws Exception {
    JsonNode problem = problem(send(request(method, path, body)), 400);
    assertThat(problem.at("/errors/0/field").asString()).isEqualTo(field);
    if (message != null) {
      assertThat(problem.at("/errors/0/message").asString()).contains(message);
    }
    nothingReachedTheStores();
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
