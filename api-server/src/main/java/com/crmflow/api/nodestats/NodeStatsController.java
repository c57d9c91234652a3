package com.crmflow.api.nodestats;

import com.crmflow.api.access.Caller;
import com.crmflow.api.access.RequiresScope;
import com.crmflow.api.access.Scope;
import com.crmflow.api.recordfield.RecordSchema;
import com.crmflow.api.web.ApiException;
import io.swagger.v3.oas.annotations.Parameter;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A flow's counts per node, for the canvas. */
@RestController
@RequestMapping("/api/sequences/{sequenceId}")
class NodeStatsController {

  private final NodeStatsService stats;

  NodeStatsController(NodeStatsService stats) {
    this.stats = stats;
  }

  @GetMapping("/stats")
  @RequiresScope(Scope.AUTOMATION_RUNS_READ)
  NodeStats stats(
      Caller caller,
      @PathVariable UUID sequenceId,
      @Parameter(
              description =
                  "ISO-8601 date-time with an offset (2026-03-01T00:00:00Z): count the entries that"
                      + " ended from the start of its hour on; left out: all time")
          @RequestParam(required = false)
          String since) {
    return stats.of(caller.tenantId(), sequenceId, parse(since));
  }

  private static Instant parse(String since) {
    if (since == null || since.isBlank()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(RecordSchema.fourDigitYear(since.trim())).toInstant();
    } catch (DateTimeException e) {
      throw ApiException.badRequest(
          "since", "must be an ISO-8601 date-time with an offset, e.g. 2026-03-01T00:00:00Z");
    }
  }
}
