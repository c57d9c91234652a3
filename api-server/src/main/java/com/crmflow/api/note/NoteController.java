package com.crmflow.api.note;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.json.JsonBodies;
import com.crmflow.api.web.Paging;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

@RestController
@RequestMapping("/api/v1/notes")
class NoteController {

  private final NoteRepository notes;
  private final NoteService service;

  NoteController(NoteRepository notes, NoteService service) {
    this.notes = notes;
    this.service = service;
  }

  /** 201 {@code {note: {id, content, contact_id, opportunity_id, account_id, created_at}}}. */
  @PostMapping
  @RequiresScope(Scope.NOTES_WRITE)
  @ResponseStatus(HttpStatus.CREATED)
  NoteAnswer create(Caller caller, @RequestBody JsonNode body) {
    return new NoteAnswer(service.create(caller.tenantId(), JsonBodies.requireObject(body)));
  }

  @GetMapping
  @RequiresScope(Scope.NOTES_READ)
  NoteList list(
      Caller caller,
      @RequestParam(name = "contact_id", required = false) UUID contactId,
      @RequestParam(name = "opportunity_id", required = false) UUID opportunityId,
      @RequestParam(name = "account_id", required = false) UUID accountId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) Integer offset) {
    Paging paging = Paging.of(limit, offset);
    return new NoteList(
        notes.list(
            caller.tenantId(),
            contactId,
            opportunityId,
            accountId,
            paging.limit(),
            paging.offset()));
  }

  /** {@code {note}}. */
  record NoteAnswer(Note note) {}

  /** {@code {notes}}. */
  record NoteList(List<Note> notes) {}
}
