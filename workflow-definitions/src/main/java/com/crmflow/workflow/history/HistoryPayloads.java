package com.crmflow.workflow.history;

import com.crmflow.workflow.contract.NodeLogEntry;
import io.temporal.common.converter.GlobalDataConverter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the log entries a run records through Temporal's history under the server's payload limit.
 *
 * <p>A Temporal server refuses a payload over 2 MB (its {@code limit.blobSize.error}): the workflow
 * task that schedules such an activity fails again on every attempt and the run never moves. When
 * the recorder is a normal activity (the {@code distributed} profile), every entry it writes is in
 * the activity's input, so a batch of large outputs (two 1 MiB answers, a merge of them) would stop
 * its run for good. Recording as local activities (the embedded defaults) keeps no input in
 * history, so this applies only to the recorder's activities.
 */
public final class HistoryPayloads {

  /**
   * The most JSON one payload may carry through history: a workflow's input, an activity's input, a
   * log entry. Under a real server's 2 MB, and above an http_request answer at its 1 MiB cap, so
   * such an answer is always logged whole; an entry over it is logged with a note of its size
   * instead of its output.
   */
  public static final int LIMIT_BYTES = 1536 * 1024;

  /** Entries are written in batches of at most this much JSON (a larger entry on its own). */
  public static final int BATCH_LIMIT_BYTES = 1024 * 1024;

  /** The note logged in place of an output over {@link #LIMIT_BYTES}. */
  public static final String OMITTED =
      "the output is too large to log: over the 1.5 MiB a log entry can carry through Temporal";

  private HistoryPayloads() {}

  /** The size of the value as the data converter writes it into history. */
  public static int bytes(Object value) {
    return GlobalDataConverter.get()
        .toPayload(value)
        .map(payload -> payload.getSerializedSize())
        .orElse(0);
  }

  /**
   * The size the run's decisions count for log entries: as written, without their span ids. Runs
   * whose history holds entries without span ids made these decisions without them, so counting the
   * span id could cut a batch or a workflow task differently on replay; at 30 bytes an entry it is
   * within the limits' margins.
   */
  public static int entryBytes(List<NodeLogEntry> entries) {
    return bytes(entries.stream().map(entry -> entry.withSpanId(null)).toList());
  }

  private static int entryBytes(NodeLogEntry entry) {
    return bytes(entry.withSpanId(null));
  }

  /** Whether the entry must give up its output to pass through history. */
  public static boolean overLimit(NodeLogEntry entry) {
    return entry.output() != null && entryBytes(entry) > LIMIT_BYTES;
  }

  /** The entry with its output replaced by {@code {omitted, bytes}}. */
  public static NodeLogEntry withoutOutput(NodeLogEntry entry) {
    Map<String, Object> note = new LinkedHashMap<>();
    note.put("omitted", OMITTED);
    note.put("bytes", bytes(entry.output()));
    return new NodeLogEntry(
        entry.seq(),
        entry.nodeId(),
        entry.nodeType(),
        entry.status(),
        entry.startedAt(),
        entry.completedAt(),
        note,
        entry.error(),
        entry.spanId(),
        entry.input());
  }

  /**
   * The entries in order, cut into batches of at most {@link #BATCH_LIMIT_BYTES} each; an entry
   * larger than that makes a batch of its own.
   */
  public static List<List<NodeLogEntry>> batches(List<NodeLogEntry> entries) {
    List<List<NodeLogEntry>> batches = new ArrayList<>();
    List<NodeLogEntry> batch = new ArrayList<>();
    int batchBytes = 0;
    for (NodeLogEntry entry : entries) {
      int size = entryBytes(entry);
      if (!batch.isEmpty() && batchBytes + size > BATCH_LIMIT_BYTES) {
        batches.add(List.copyOf(batch));
        batch.clear();
        batchBytes = 0;
      }
      batch.add(entry);
      batchBytes += size;
    }
    if (!batch.isEmpty()) {
      batches.add(List.copyOf(batch));
    }
    return batches;
  }
}
