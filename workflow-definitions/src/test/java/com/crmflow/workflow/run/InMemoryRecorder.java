package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunRecorderActivities;
import java.time.Duration;
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
    notifyAll();
  }

  /**
   * The run's entry of the node once recorded with that status, waiting up to {@code timeout} for
   * it: the activity that records it and one the node calls (a wait_until's watch) may run side by
   * side.
   */
  public synchronized NodeLogEntry awaitEntry(
      String runId, String nodeId, String status, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      for (NodeLogEntry entry : logs.getOrDefault(runId, new TreeMap<>()).values()) {
        if (entry.nodeId().equals(nodeId) && entry.status().equals(status)) {
          return entry;
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "no " + status + " entry of " + nodeId + " in run " + runId + " after " + timeout);
      }
      wait(Math.max(1, left / 1_000_000));
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
