package com.crmflow.api.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The cause an event carries, in the form stored with it and with the runs it starts. */
class EventCauseTest {

  private final UUID first = UUID.randomUUID();
  private final UUID second = UUID.randomUUID();
  private final UUID run = UUID.randomUUID();

  private final UUID root = UUID.randomUUID();

  @Test
  void aWriteOfARunStartedByACausedEventCarriesTheChainAndTheRootOn() {
    EventCause startedBy = EventCause.ofWrite(UUID.randomUUID(), first, "write", null, root);
    EventCause cause = EventCause.ofWrite(run, second, "update", startedBy, UUID.randomUUID());

    assertThat(cause.chain()).containsExactly(first, second);
    assertThat(cause.depth()).isEqualTo(2);
    assertThat(cause.leadsThrough(first)).isTrue();
    assertThat(cause.leadsThrough(UUID.randomUUID())).isFalse();
    assertThat(cause.asMap())
        .isEqualTo(
            Map.of(
                "run_id", run.toString(),
                "sequence_id", second.toString(),
                "node_id", "update",
                "chain", List.of(first.toString(), second.toString()),
                "depth", 2,
                "root", root.toString()));
    assertThat(EventCause.from(cause.asMap())).isEqualTo(cause);
  }

  @Test
  void aStoredCauseWithoutARootHasItsRunForOne() {
    assertThat(
            EventCause.from(
                    Map.of(
                        "run_id", run.toString(),
                        "sequence_id", first.toString(),
                        "chain", List.of(first.toString())))
                .root())
        .isEqualTo(run);
  }

  @Test
  void aValueNotOfItsShapeIsNoCause() {
    assertThat(EventCause.from(null)).isNull();
    assertThat(EventCause.from("billing")).isNull();
    assertThat(EventCause.from(Map.of("code", 5))).isNull();
    assertThat(EventCause.from(Map.of("run_id", run.toString(), "chain", List.of()))).isNull();
    assertThat(
            EventCause.from(
                Map.of(
                    "run_id", "not a uuid",
                    "sequence_id", first.toString(),
                    "chain", List.of(first.toString()))))
        .isNull();
    // longer than the depth limit lets any chain grow: not one the service wrote
    assertThat(
            EventCause.from(
                Map.of(
                    "run_id",
                    run.toString(),
                    "sequence_id",
                    first.toString(),
                    "chain",
                    Collections.nCopies(EventCause.LONGEST_CHAIN + 1, first.toString()))))
        .isNull();
  }
}
