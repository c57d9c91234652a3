package com.crmflow.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.settings.CrmProperties;
import com.crmflow.api.support.ApiTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The cap on what refused calls write: a source's rows a minute, all sources' rows a minute, and
 * the refusals beyond either counted on a row ({@code repeats}) instead of written.
 */
@TestPropertySource(
    properties = {
      "crm.security-events.rows-per-source-per-minute=5",
      "crm.security-events.rows-per-minute=8"
    })
// the caps are this class's own: its service goes when it is done
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class SecurityEventCapTest extends ApiTest {

  @Autowired private SecurityEventLog securityEventLog;
  @Autowired private SecurityEventRepository repository;

  private record Row(String source, int status, int repeats) {}

  private long lastId() {
    return jdbc.sql("select coalesce(max(id), 0) from security_event").query(Long.class).single();
  }

  private List<Row> rowsAfter(long id) {
    return jdbc.sql(
            """
            select coalesce(cast(api_key_id as text), remote_address) as source, status, repeats
            from security_event where id > :id order by id
            """)
        .param("id", id)
        .query(Row.class)
        .list();
  }

  @Test
  void aFloodOfBadKeysAddsCountsNotRows() {
    long before = lastId();
    int calls = 60;
    for (int i = 0; i < calls; i++) {
      assertThat(withKey("crm_flood_" + UUID.randomUUID()).get("/api/v1/contacts").status())
          .isEqualTo(401);
    }
    securityEventLog.flush();

    List<Row> rows = rowsAfter(before);
    // five rows a minute for the address (ten if the minute turned during the flood)
    assertThat(rows).hasSizeBetween(5, 10).allMatch(r -> r.source().equals("127.0.0.1"));
    assertThat(rows.stream().mapToInt(Row::repeats).sum())
        .as("every refusal counted")
        .isEqualTo(60);
    // the admin API shows the counts
    assertThat(
            admin()
                .get("/admin/v1/security-events?limit=10")
                .at("/events")
                .valueStream()
                .map(e -> e.get("repeats").asInt()))
        .anyMatch(repeats -> repeats > 1);
  }

  @Test
  void eachSourceHasItsOwnRowsUpToTheCapOfAllSources() {
    var clock = new SteppedClock(Instant.parse("2026-11-27T10:00:05Z"));
    var log =
        new SecurityEventLog(
            repository, new CrmProperties.SecurityEvents(Duration.ofDays(90), 2, 5), clock);
    UUID tenant = newTenant().id();
    UUID key =
        jdbc.sql("select id from api_key where tenant_id = :t")
            .param("t", tenant)
            .query(UUID.class)
            .single();
    long before = lastId();

    for (int i = 0; i < 4; i++) {
      refusal(log, null, "198.51.100.1"); // two rows, two repeats on the second
    }
    for (int i = 0; i < 3; i++) {
      refusal(log, key, "198.51.100.1"); // a known key is its own source, whatever its address
    }
    refusal(log, null, "198.51.100.2"); // the fifth row of the minute: the last one
    refusal(log, null, "198.51.100.3"); // beyond the minute's cap: onto the minute's last row
    clock.step(Duration.ofMinutes(1));
    refusal(log, null, "198.51.100.1"); // a new minute: rows again
    log.flush();

    assertThat(rowsAfter(before))
        .containsExactly(
            new Row("198.51.100.1", 401, 1),
            new Row("198.51.100.1", 401, 3),
            new Row(key.toString(), 403, 1),
            new Row(key.toString(), 403, 2),
            new Row("198.51.100.2", 401, 2),
            new Row("198.51.100.1", 401, 1));
  }

  private static void refusal(SecurityEventLog log, UUID key, String address) {
    log.refused(
        null,
        key,
        "api_key",
        "GET",
        "/api/v1/contacts",
        key == null ? 401 : 403,
        key == null ? "an unknown or revoked API key" : "the key lacks the scope contacts:read",
        address);
  }

  /** A clock that moves only when told. */
  private static final class SteppedClock extends Clock {
    private Instant now;

    SteppedClock(Instant start) {
      now = start;
    }

    void step(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public long millis() {
      return now.toEpochMilli();
    }
  }
}
