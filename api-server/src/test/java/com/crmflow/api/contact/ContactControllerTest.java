package com.crmflow.api.contact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import com.crmflow.api.access.Scope;
import com.crmflow.api.support.ControllerSliceTest;
import com.crmflow.api.web.Cursor;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

/**
 * The contact endpoints' own validation, error answers and scopes, in a slice of the web layer:
 * every refused request is a problem naming what is wrong and never reaches the stores. What the
 * endpoints store is {@link ContactApiTest}'s subject, on the whole service.
 */
class ContactControllerTest extends ControllerSliceTest {

  @Autowired ContactRepository contacts;

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("GET", "/api/v1/contacts", null, Scope.CONTACTS_READ),
        Arguments.of("GET", "/api/v1/contacts/" + ANY_ID, null, Scope.CONTACTS_READ),
        Arguments.of("POST", "/api/v1/contacts", "{}", Scope.CONTACTS_WRITE),
        Arguments.of("PATCH", "/api/v1/contacts/" + ANY_ID, "{}", Scope.CONTACTS_WRITE));
  }

  static Stream<Arguments> refusedRequests() {
    return largeListRefusals("/api/v1/contacts");
  }

  @Test
  void malformedJsonIs400NamingTheBody() throws Exception {
    JsonNode problem =
        problem(
            send(
                post("/api/v1/contacts")
                    .contentType(MediaType.APPLICATION_JSON)
                    .content("{\"email\": ")),
            400);
    assertThat(problem.at("/errors/0/field").asString()).isEqualTo("body");
    assertThat(problem.at("/errors/0/message").asString()).startsWith("is not valid JSON");
    nothingReachedTheStores();
  }

  @Test
  void nonObjectBodyIs400NamingTheBody() throws Exception {
    for (String body : new String[] {"[1,2]", "\"text\"", "42", "null"}) {
      MvcResult created =
          send(post("/api/v1/contacts").contentType(MediaType.APPLICATION_JSON).content(body));
      assertThat(problem(created, 400).at("/errors/0/field").asString()).as(body).isEqualTo("body");
      MvcResult patched =
          send(
              patch("/api/v1/contacts/" + UUID.randomUUID())
                  .contentType(MediaType.APPLICATION_JSON)
                  .content(body));
      assertThat(problem(patched, 400).at("/errors/0/field").asString()).as(body).isEqualTo("body");
    }
    nothingReachedTheStores();
  }

  @Test
  void badQueryParametersAre400NamingTheParameter() throws Exception {
    String[][] cases = {
      {"/api/v1/contacts?limit=abc", "limit"},
      {"/api/v1/contacts?limit=101", "limit"},
      {"/api/v1/contacts?limit=0", "limit"},
      {"/api/v1/contacts?offset=-1", "offset"},
      {"/api/v1/contacts?after=not-a-cursor", "after"},
      {"/api/v1/contacts/not-a-uuid", "id"},
    };
    for (String[] c : cases) {
      JsonNode problem = problem(send(get(c[0])), 400);
      assertThat(problem.at("/errors/0/field").asString()).as(c[0]).isEqualTo(c[1]);
    }
    nothingReachedTheStores();
  }

  @Test
  void aSearchTakesNoCursorAndReachesOnlyItsFirstMatches() throws Exception {
    // a cursor of a whole list's page, which a search cannot continue
    String cursor = new Cursor(OffsetDateTime.now(ZoneOffset.UTC), UUID.randomUUID()).token();
    MvcResult withCursor = send(get("/api/v1/contacts?search=lee&after=" + cursor));
    JsonNode cursorProblem = problem(withCursor, 400);
    assertThat(cursorProblem.at("/errors/0/field").asString()).isEqualTo("after");
    assertThat(cursorProblem.at("/errors/0/message").asString())
        .contains("cannot be combined with search");

    MvcResult tooDeep = send(get("/api/v1/contacts?search=lee&offset=960&limit=50"));
    JsonNode depthProblem = problem(tooDeep, 400);
    assertThat(depthProblem.at("/errors/0/field").asString()).isEqualTo("offset");
    assertThat(depthProblem.at("/errors/0/message").asString()).contains("narrow the search");
    nothingReachedTheStores();
  }

  @Test
  void anUnknownContactIs404NamingIt() throws Exception {
    UUID id = UUID.randomUUID();
    when(contacts.find(TENANT, id)).thenReturn(Optional.empty());
    JsonNode problem = problem(send(get("/api/v1/contacts/" + id)), 404);
    assertThat(problem.at("/detail").asString()).contains(id.toString());
    verify(contacts).find(eq(TENANT), eq(id));
  }

  @Test
  void unknownRoutesAndMethodsAreProblems() throws Exception {
    problem(send(get("/api/v1/nothing-here")), 404);
    problem(
        send(put("/api/v1/contacts").contentType(MediaType.APPLICATION_JSON).content("{}")), 405);
    nothingReachedTheStores();
  }

  @Test
  void noKeyIs401AndAKeyWithoutTheScopeIs403() throws Exception {
    problem(mvc.perform(get("/api/v1/contacts")).andReturn(), 401);
    problem(
        mvc.perform(get("/api/v1/contacts").header("Authorization", "Bearer unknown")).andReturn(),
        401);
    scopes = Set.of("contacts:read");
    JsonNode refused =
        problem(
            send(post("/api/v1/contacts").contentType(MediaType.APPLICATION_JSON).content("{}")),
            403);
    assertThat(refused.at("/detail").asString()).contains("contacts:write");
    nothingReachedTheStores();
    verify(apiKeys, org.mockito.Mockito.atLeastOnce()).authenticate(any());
  }
}
