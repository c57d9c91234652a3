package com.crmflow.api.task;

import com.crmflow.api.recordfield.RecordReferences;
import com.crmflow.api.web.ApiException;
import com.crmflow.api.web.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

@Service
public class TaskService {

  private final TaskRepository tasks;
  private final RecordReferences references;

  TaskService(TaskRepository tasks, RecordReferences references) {
    this.tasks = tasks;
    this.references = references;
  }

  @Transactional
  public Task create(UUID tenantId, JsonNode body) {
    Map<String, Object> fields = validate(body, true);
    references.requireExisting(tenantId, fields);
    return tasks.insert(tenantId, fields);
  }

  @Transactional
  public Task patch(UUID tenantId, UUID id, JsonNode body) {
    Map<String, Object> fields = validate(body, false);
    references.requireExisting(tenantId, fields);
    return tasks.update(tenantId, id, fields).orElseThrow(() -> ApiException.notFound("Task", id));
  }

  private static Map<String, Object> validate(JsonNode body, boolean creating) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = TaskSchema.SCHEMA.validate(body, creating, Set.of(), problems);
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    return fields;
  }
}
