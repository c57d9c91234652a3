package com.crmflow.workflow.run;

import com.crmflow.workflow.contract.NodeLogEntry;
import com.crmflow.workflow.contract.RunMoveResult;
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

  /** The exit of each run that ended with one (a goal). */
  public final Map<String, Map<String, Object>> exits = new ConcurrentHashMap<>();

  /** The first failed entry recorded, of any run. */
  final CompletableFuture<NodeLogEntry> firstFailure = new CompletableFuture<>();

  /** The first entry recorded of each run, node and status ({@link #recorded}). */
  private final Map<String, CompletableFuture<NodeLogEntry>> recorded = new ConcurrentHashMap<>();

  @Override
  public synchronized void recordNode(String runId, NodeLogEntry entry) {
    TreeMap<Integer, NodeLogEntry> log = logs.computeIfAbsent(runId, id -> new TreeMap<>());
    if (!"running".equals(entry.status()) || !log.containsKey(entry.seq())) {
      log.put(entry.seq(), entry);
    }
    if ("failed".equals(entry.status())) {
      firstFailure.complete(entry);
    }
    recorded(runId, entry.nodeId(), entry.status()).complete(entry);
  }

  /**
   * The first entry of the run's node with that status, once recorded: the interpreter writes its
   * log in parallel with what the run waits on, so an entry may land after the call beside it.
   */
  CompletableFuture<NodeLogEntry> recorded(String runId, String nodeId, String status) {
    return recorded.computeIfAbsent(
        runId + "/" + nodeId + "/" + status, key -> new CompletableFuture<>());
  }

  @Override
  public synchronized void recordNodes(String runId, List<NodeLogEntry> entries) {
    entries.forEach(entry -> recordNode(runId, entry));
  }

  @Override
  public synchronized void endRun(
      String runId,
      List<NodeLogEntry> entries,
      String status,
      String error,
      Map<String, Object> exit) {
    recordNodes(runId, entries);
    if (exit != null) {
      exits.put(runId, exit);
    }
    finishRun(runId, status, error);
  }

  @Override
  public void finishRun(String runId, String status, String error) {
    finished.put(runId, status);
  }

  /** The moves recorded, per run, in order. */
  public final Map<String, List<RunMoveResult>> moves = new ConcurrentHashMap<>();

  @Override
  public synchronized void recordMove(
      String runId, List<NodeLogEntry> entries, RunMoveResult moved) {
    recordNodes(runId, entries);
    moves
        .computeIfAbsent(runId, id -> new java.util.concurrent.CopyOnWriteArrayList<>())
        .add(moved);
  }

  public synchronized List<NodeLogEntry> log(String runId) {
    return List.copyOf(logs.getOrDefault(runId, new TreeMap<>()).values());
  }
}
