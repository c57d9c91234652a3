package com.crmflow.api.note;

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
public class NoteService {

  private final NoteRepository notes;
  private final RecordReferences references;

  NoteService(NoteRepository notes, RecordReferences references) {
    this.notes = notes;
    this.references = references;
  }

  @Transactional
  public Note create(UUID tenantId, JsonNode body) {
    List<FieldProblem> problems = new ArrayList<>();
    Map<String, Object> fields = NoteSchema.SCHEMA.validate(body, true, Set.of(), problems);
    if (problems.isEmpty()
        && fields.get("contact_id") == null
        && fields.get("opportunity_id") == null
        && fields.get("account_id") == null) {
      problems.add(
          new FieldProblem(
              "contact_id", "a note needs one of contact_id, opportunity_id or account_id"));
    }
    if (!problems.isEmpty()) {
      throw ApiException.invalid(problems);
    }
    references.requireExisting(tenantId, fields);
    return notes.insert(tenantId, fields);
  }
}
