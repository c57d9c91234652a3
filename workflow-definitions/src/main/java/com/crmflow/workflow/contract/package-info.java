/**
 * The run's contract: what a run of a flow is started with ({@link
 * com.crmflow.workflow.contract.RunInput}), how it ended ({@link
 * com.crmflow.workflow.contract.RunResult}), where a resumed run stands ({@link
 * com.crmflow.workflow.contract.RunResume}), its node log ({@link
 * com.crmflow.workflow.contract.NodeLogEntry}) and the activities that write that log. api-server
 * and the interpreter agree on these; they depend on the canvas model only.
 */
package com.crmflow.workflow.contract;
