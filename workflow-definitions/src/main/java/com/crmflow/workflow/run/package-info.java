/**
 * The canvas interpreter ({@link com.crmflow.workflow.run.AutomationRunWorkflowImpl}): the walk
 * through the graph, joins, failures and cancel. It hands the node log's recording to {@link
 * com.crmflow.workflow.run.NodeLogRecording} and the version markers of its changes to {@link
 * com.crmflow.workflow.run.InterpreterChanges}. The top of the engine's layers: canvas → contract →
 * history → node → rules → run (see the architecture notes in docs/).
 */
package com.crmflow.workflow.run;
