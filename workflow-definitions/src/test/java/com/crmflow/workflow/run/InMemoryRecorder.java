package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunRecorderActivities;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for api-server's recorder activity so the interpreter can be tested on its own; it keys
 * entries by (run, seq) as the real table does.
 */
public class InMemoryRecorder implements RunRecorderActivities {

  final Map<String, TreeMap<Integer, NodeLogEntry>> logs = new ConcurrentHashMap<>();
  public final Map<String, String> finished = new ConcurrentHashMap<>();

  /** The first failed entry recorded, of any run. */
  final CompletableFuture<NodeLogEntry> firstFailure = new CompletableFuture<>();

  @Override
  public synchronized void recordNode(String runId, NodeLogEntry entry) {
    TreeMap<Integer, NodeLogEntry> log = logs.computeIfAbsent(runId, id -> new TreeMap<>());
    if (!"running".equals(entry.status()) || !log.containsKey(entry.seq())) {
      log.put(entry.seq(), entry);
    }
    if ("failed".equals(entry.status())) {
      firstFailure.complete(entry);
    }
  }

  @Override
  public synchronized void recordNodes(String runId, List<NodeLogEntry> entries) {
    entries.forEach(entry -> recordNode(runId, entry));
  }

  @Override
  public synchronized void endRun(
      String runId, List<NodeLogEntry> entries, String status, String error) {
    recordNodes(runId, entries);
    finishRun(runId, status, error);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    finished.put(runId, status);
  }

  public synchronized List<NodeLogEntry> log(String runId) {
    return List.copyOf(logs.getOrDefault(runId, new TreeMap<>()).values());
  }
}
