package com.crmflow.api.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.crmflow.api.support.ApiTest;
import com.crmflow.api.support.Patience;
import com.crmflow.client.ApiClient;
import com.crmflow.client.ApiException;
import com.crmflow.client.api.AdminApi;
import com.crmflow.client.api.AutomationRunsApi;
import com.crmflow.client.api.CanvasApi;
import com.crmflow.client.api.ContactsApi;
import com.crmflow.client.api.SequencesApi;
import com.crmflow.client.model.AutomationRun;
import com.crmflow.client.model.Canvas;
import com.crmflow.client.model.CanvasEdge;
import com.crmflow.client.model.CanvasNode;
import com.crmflow.client.model.CanvasSaved;
import com.crmflow.client.model.Contact;
import com.crmflow.client.model.ContactUpsert;
import com.crmflow.client.model.CreateKeyRequest;
import com.crmflow.client.model.CreateTenantRequest;
import com.crmflow.client.model.NodeData;
import com.crmflow.client.model.Position;
import com.crmflow.client.model.Problem;
import com.crmflow.client.model.SequenceCreate;
import com.crmflow.client.model.SequencePatch;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Java client generated from docs/openapi.json (openapi-generator, at generate-test-sources),
 * and nothing else, against the running service: a tenant and its keys, a contact, an automation
 * built, activated and triggered, its run read, and a 403 and a 404 read as typed problems. The
 * committed document is the served one (OpenApiLintTest), so a drift breaks this build.
 */
class GeneratedClientTest extends ApiTest {

  private ApiClient client(String bearer) {
    ApiClient client = new ApiClient();
    client.updateBaseUri(baseUrl());
    client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + bearer));
    return client;
  }

  @Test
  void aGeneratedClientBuildsAndRunsAnAutomation() throws Exception {
    AdminApi admin = new AdminApi(client(ADMIN_TOKEN));
    UUID tenantId =
        admin
            .createTenant(new CreateTenantRequest().name("Generated client"), null)
            .getTenant()
            .getId();
    String key =
        admin
            .issueApiKey(tenantId, new CreateKeyRequest().name("all").scopes(List.of("*")), null)
            .getKey();
    ApiClient api = client(key);
    ContactsApi contacts = new ContactsApi(api);

    Contact ada =
        contacts
            .upsertContact(new ContactUpsert().email("ada@example.com").firstName("Ada"), null)
            .getContact();
    assertThat(ada.getEmail()).isEqualTo("ada@example.com");

    SequencesApi sequences = new SequencesApi(api);
    UUID flow =
        sequences
            .createSequence(
                new SequenceCreate()
                    .name("Qualify")
                    .flowType(SequenceCreate.FlowTypeEnum.AUTOMATION)
                    .builderMode(SequenceCreate.BuilderModeEnum.VISUAL),
                null)
            .getSequence()
            .getId();
    CanvasSaved saved =
        new CanvasApi(api)
            .replaceCanvas(
                flow,
                new Canvas()
                    .nodes(
                        List.of(
                            node("hook", "webhook_trigger", Map.of()),
                            node(
                                "qualify",
                                "crm_update",
                                Map.of(
                                    "entityType",
                                    "contact",
                                    "recordId",
                                    "{{trigger.contact_id}}",
                                    "fieldMappings",
                                    Map.of("lead_status", "qualified")))))
                    .edges(List.of(new CanvasEdge().id("e1").source("hook").target("qualify"))),
                false,
                null);
    assertThat(saved.getNodeCount()).isEqualTo(2);
    assertThat(saved.getEdgeCount()).isEqualTo(1);
    assertThat(
            sequences
                .updateSequence(flow, new SequencePatch().status(SequencePatch.StatusEnum.ACTIVE))
                .getSequence()
                .getStatus())
        .hasToString("active");

    AutomationRunsApi runs = new AutomationRunsApi(api);
    UUID runId =
        runs.fireTrigger(
                tenantId.toString(),
                "hook",
                null,
                null,
                null,
                Map.of("contact_id", ada.getId().toString()))
            .getRunId();
    AutomationRun run =
        await()
            .atMost(Patience.EVENTUALLY)
            .until(
                () -> runs.getAutomationRun(runId).getRun(),
                r -> r.getStatus() == AutomationRun.StatusEnum.COMPLETED);
    assertThat(run.getSequenceId()).isEqualTo(flow);
    assertThat(run.getNodeLog()).isNotEmpty();
    assertThat(contacts.getContact(ada.getId()).getContact().getLeadStatus())
        .isEqualTo("qualified");

    ApiException missing =
        catchThrowableOfType(ApiException.class, () -> contacts.getContact(UUID.randomUUID()));
    Problem notFound = api.getObjectMapper().readValue(missing.getResponseBody(), Problem.class);
    assertThat(missing.getCode()).isEqualTo(404);
    assertThat(notFound.getStatus()).isEqualTo(404);
    assertThat(notFound.getTitle()).isEqualTo("Not Found");

    String readOnly =
        admin
            .issueApiKey(
                tenantId,
                new CreateKeyRequest().name("read").scopes(List.of("contacts:read")),
                null)
            .getKey();
    ApiException refused =
        catchThrowableOfType(
            ApiException.class,
            () ->
                new ContactsApi(client(readOnly))
                    .upsertContact(new ContactUpsert().email("grace@example.com"), null));
    Problem forbidden = api.getObjectMapper().readValue(refused.getResponseBody(), Problem.class);
    assertThat(refused.getCode()).isEqualTo(403);
    assertThat(forbidden.getStatus()).isEqualTo(403);
    assertThat(forbidden.getDetail()).contains("contacts:write");
    assertThat(contacts.listContacts(null, null, null, null, null).getTotal()).isEqualTo(1);
  }

  private static CanvasNode node(String id, String type, Map<String, Object> config) {
    return new CanvasNode()
        .id(id)
        .type(type)
        .position(new Position().x(0.0).y(0.0))
        .data(new NodeData().label(type + " " + id).config(config));
  }
}
