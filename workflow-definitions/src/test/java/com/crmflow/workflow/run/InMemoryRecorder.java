package com.crmflow.workflow.run;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for api-server's recorder activity so the interpreter can be tested on its own; it keys
 * entries by (run, seq) as the real table does.
 */
class InMemoryRecorder implements RunRecorderActivities {

  final Map<String, TreeMap<Integer, NodeLogEntry>> logs = new ConcurrentHashMap<>();
  final Map<String, String> finished = new ConcurrentHashMap<>();

  @Override
  public synchronized void recordNode(String runId, NodeLogEntry entry) {
    logs.computeIfAbsent(runId, id -> new TreeMap<>()).put(entry.seq(), entry);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    finished.put(runId, status);
  }

  synchronized List<NodeLogEntry> log(String runId) {
    return List.copyOf(logs.getOrDefault(runId, new TreeMap<>()).values());
  }
}
