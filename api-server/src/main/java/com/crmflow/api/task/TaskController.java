package com.crmflow.api.task;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.Paging;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/tasks")
class TaskController {

  private final TaskRepository tasks;
  private final TaskService service;

  TaskController(TaskRepository tasks, TaskService service) {
    this.tasks = tasks;
    this.service = service;
  }

  @PostMapping
  @RequiresScope(Scope.TASKS_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  TaskAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new TaskAnswer(service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  @PatchMapping("/{id}")
  @RequiresScope(Scope.TASKS_WRITE)
  TaskAnswer patch(Caller caller, @PathVariable UUID id, @RequestBody JsonNode body) {
    return new TaskAnswer(service.patch(caller.tenantId(), id, JsonBodies.requireObject(body)));
  }

  /** Newest first; optional status and contact_id filters. */
  @GetMapping
  @RequiresScope(Scope.TASKS_READ)
  TaskList list(
      Caller caller,
      @RequestParam(required = false) String status,
      @RequestParam(name = "contact_id", required = false) UUID contactId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    if (status != null && !TaskSchema.STATUSES.contains(status)) {
      throw ApiException.badRequest("status", "must be one of " + TaskSchema.STATUSES);
    }
    Paging paging = Paging.of(limit, offset);
    return new TaskList(
        tasks.list(caller.tenantId(), status, contactId, paging.limit(), paging.offset()));
  }

  /** {@code {task}}. */
  record TaskAnswer(Task task) {}

  /** {@code {tasks}}. */
  record TaskList(List<Task> tasks) {}
}
