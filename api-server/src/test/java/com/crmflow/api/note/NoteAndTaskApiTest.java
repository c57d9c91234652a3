package com.crmflow.api.note;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.support.ApiResponse;
import com.crmflow.api.support.ApiTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoteAndTaskApiTest extends ApiTest {

  @Test
  void notesAttachToARecordOfTheTenant() {
    var tenant = newTenant();
    String contactId =
        tenant.api().post("/api/v1/contacts", Map.of("email", "n@example.com")).text("/contact/id");

    ApiResponse note =
        tenant
            .api()
            .post(
                "/api/v1/notes",
                Map.of("content", "Called, wants a demo", "contact_id", contactId));
    assertThat(note.status()).isEqualTo(201);
    assertThat(note.text("/note/content")).isEqualTo("Called, wants a demo");
    assertThat(note.text("/note/contact_id")).isEqualTo(contactId);

    ApiResponse unattached = tenant.api().post("/api/v1/notes", Map.of("content", "floating"));
    assertThat(unattached.status()).isEqualTo(400);
    ApiResponse empty =
        tenant.api().post("/api/v1/notes", Map.of("content", " ", "contact_id", contactId));
    assertThat(empty.status()).isEqualTo(400);
    ApiResponse unknown =
        tenant
            .api()
            .post(
                "/api/v1/notes",
                Map.of("content", "x", "opportunity_id", "00000000-0000-0000-0000-000000000007"));
    assertThat(unknown.status()).isEqualTo(422);
    assertThat(unknown.text("/errors/0/field")).isEqualTo("opportunity_id");

    ApiResponse listed = tenant.api().get("/api/v1/notes?contact_id=" + contactId);
    assertThat(listed.at("/notes").size()).isEqualTo(1);
  }

  @Test
  void tasksTrackTheirCompletion() {
    var tenant = newTenant();
    ApiResponse task =
        tenant
            .api()
            .post("/api/v1/tasks", Map.of("title", "Send proposal", "due_date", "2026-12-01"));
    assertThat(task.status()).isEqualTo(201);
    assertThat(task.text("/task/status")).isEqualTo("open");
    assertThat(task.at("/task/completed_at").isNull()).isTrue();
    String id = task.text("/task/id");

    ApiResponse done = tenant.api().patch("/api/v1/tasks/" + id, Map.of("status", "completed"));
    assertThat(done.text("/task/status")).isEqualTo("completed");
    assertThat(done.text("/task/completed_at")).isNotNull();
    ApiResponse reopened = tenant.api().patch("/api/v1/tasks/" + id, Map.of("status", "open"));
    assertThat(reopened.at("/task/completed_at").isNull()).isTrue();

    assertThat(
            tenant.api().post("/api/v1/tasks", Map.of("title", "x", "status", "someday")).status())
        .isEqualTo(400);
    assertThat(tenant.api().get("/api/v1/tasks?status=open").at("/tasks").size()).isEqualTo(1);
    assertThat(tenant.api().get("/api/v1/tasks?status=completed").at("/tasks").size()).isZero();
  }
}
