package com.crmflow.workflow.node;

import com.crmflow.workflow.action.RecordEvent;
import com.crmflow.workflow.canvas.CanvasNode;
import com.crmflow.workflow.contract.RunInput;
import java.util.List;
import java.util.Map;

/** What a node may use of the run it runs in. Implemented by the interpreter. */
public interface NodeRun {

  RunInput input();

  /** The template variables: trigger, contact and the outputs of the nodes run so far. */
  Map<String, Object> scope();

  /**
   * Fails the node when its activity's input is too large to pass through history, and waits for
   * the next workflow task when the current one has no room left for it.
   */
  void requireFitsInHistory(String what, Object... arguments);

  /** Whether the run takes the path of version 1 of the change with this id. */
  boolean since(String changeId);

  /** The run has failed (another branch's node failed). */
  boolean failed();

  /** Since the failure, nodes in flight settle before the run ends. */
  boolean branchesSettle();

  /**
   * Reserves room in the current workflow task for a local activity's answer ({@code
   * WorkflowTaskBudget}); false: the call goes through a queue instead.
   */
  boolean reserveAnswer(long bytes);

  /** The local activity reserved for has landed, carrying this many bytes. */
  void answerLanded(long reserved, long carried);

  /**
   * The span of the activity that did the node's work, as the activity answered it (null: it ran in
   * no trace): the node's log entry names it in place of the workflow task's span.
   */
  void activitySpan(CanvasNode node, String spanId);

  /** The run's contact: the one loaded at the start, or the trigger payload's contact_id. */
  String contactId();

  /**
   * The events routed to the node (it watches a record for them: wait_until), oldest first, each
   * once: those signalled to the run and those {@link #routed} handed over. A live view: it grows
   * as signals arrive, so a node awaits it with {@code Workflow.await}.
   */
  List<RecordEvent> recordEvents(CanvasNode node);

  /** Events routed to the node before this execution of the run had them (its watch's answer). */
  void routed(CanvasNode node, List<RecordEvent> events);

  /**
   * Logs the node as running now with this output, as {@link NodeExecutor#runningOutput} does
   * before a node starts: for a node that learns when it wakes only once it runs (a send window in
   * the contact's zone), before it waits.
   */
  void running(CanvasNode node, Map<String, Object> output);

  /**
   * Whether the run was asked to end (its flow paused or archived, {@code in_flight: end}): a node
   * that waits wakes for it and calls {@link #endWaiting}.
   */
  boolean endAsked();

  /**
   * For a waiting node that woke because the run was asked to end: throws {@link NodeEnded} where
   * the run takes the ask; returns where it does not (a run whose history predates the ask), and
   * the node waits on as before.
   */
  void endWaiting();
}
