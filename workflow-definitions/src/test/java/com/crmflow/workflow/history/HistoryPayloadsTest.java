package com.crmflow.workflow.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.contract.NodeLogEntry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryPayloadsTest {

  private static NodeLogEntry entry(int seq, int outputChars) {
    return new NodeLogEntry(
        seq,
        "n" + seq,
        "http_request",
        "completed",
        "2026-11-24T10:00:00.000Z",
        "2026-11-24T10:00:01.000Z",
        Map.of("body", "x".repeat(outputChars)),
        null);
  }

  @Test
  void batchesKeepTheOrderAndStayUnderTheLimitWithALargerEntryOnItsOwn() {
    NodeLogEntry small = entry(1, 100);
    NodeLogEntry half = entry(2, 600_000);
    NodeLogEntry otherHalf = entry(3, 600_000);
    NodeLogEntry large = entry(4, 1_200_000);
    NodeLogEntry last = entry(5, 100);

    List<List<NodeLogEntry>> batches =
        HistoryPayloads.batches(List.of(small, half, otherHalf, large, last));

    assertThat(batches)
        .containsExactly(List.of(small, half), List.of(otherHalf), List.of(large), List.of(last));
    assertThat(batches.subList(0, 2))
        .allSatisfy(
            batch ->
                assertThat(batch.stream().mapToInt(HistoryPayloads::bytes).sum())
                    .isLessThanOrEqualTo(HistoryPayloads.BATCH_LIMIT_BYTES));
  }

  @Test
  void smallEntriesMakeOneBatchAndNoEntriesNone() {
    assertThat(HistoryPayloads.batches(List.of(entry(1, 10), entry(2, 10))))
        .containsExactly(List.of(entry(1, 10), entry(2, 10)));
    assertThat(HistoryPayloads.batches(List.of())).isEmpty();
  }

  @Test
  void anEntryOverTheLimitKeepsEverythingButItsOutputWhichBecomesANoteOfItsSize() {
    NodeLogEntry fits = entry(1, HistoryPayloads.LIMIT_BYTES - 1000);
    NodeLogEntry over = entry(2, HistoryPayloads.LIMIT_BYTES);

    assertThat(HistoryPayloads.overLimit(fits)).isFalse();
    assertThat(HistoryPayloads.overLimit(over)).isTrue();
    NodeLogEntry logged = HistoryPayloads.withoutOutput(over);
    assertThat(logged.output())
        .containsExactly(
            Map.entry("omitted", HistoryPayloads.OMITTED),
            Map.entry("bytes", HistoryPayloads.bytes(over.output())));
    assertThat((Integer) logged.output().get("bytes")).isGreaterThan(HistoryPayloads.LIMIT_BYTES);
    assertThat(logged).usingRecursiveComparison().ignoringFields("output").isEqualTo(over);
  }

  @Test
  void spanIdsCountForNoSizeDecisionSoARunUnderWayCutsItsBatchesAsBefore() {
    NodeLogEntry first = entry(1, 100);
    // the second entry fills the batch to the byte, counted without span ids
    int chars =
        HistoryPayloads.BATCH_LIMIT_BYTES
            - HistoryPayloads.bytes(first)
            - HistoryPayloads.bytes(entry(2, 0));
    // (a payload's length prefix grows with it: step back until the two fit)
    while (HistoryPayloads.bytes(first) + HistoryPayloads.bytes(entry(2, chars))
        > HistoryPayloads.BATCH_LIMIT_BYTES) {
      chars--;
    }
    NodeLogEntry second = entry(2, chars);
    assertThat(HistoryPayloads.bytes(first) + HistoryPayloads.bytes(second))
        .isBetween(HistoryPayloads.BATCH_LIMIT_BYTES - 8, HistoryPayloads.BATCH_LIMIT_BYTES);
    List<NodeLogEntry> plain = List.of(first, second);
    List<NodeLogEntry> traced =
        List.of(first.withSpanId("00f067aa0ba902b7"), second.withSpanId("00f067aa0ba902b7"));
    assertThat(HistoryPayloads.bytes(traced.get(0)) + HistoryPayloads.bytes(traced.get(1)))
        .as("with their span ids the two entries are over the batch limit")
        .isGreaterThan(HistoryPayloads.BATCH_LIMIT_BYTES);

    assertThat(HistoryPayloads.batches(traced)).hasSize(1);
    assertThat(HistoryPayloads.batches(plain)).hasSize(1);
    assertThat(HistoryPayloads.entryBytes(traced)).isEqualTo(HistoryPayloads.entryBytes(plain));
    assertThat(HistoryPayloads.batches(traced).get(0)).containsExactlyElementsOf(traced);
  }
}
