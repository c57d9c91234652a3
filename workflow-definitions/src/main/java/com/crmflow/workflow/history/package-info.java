/**
 * History sizing: how much JSON a value takes in a run's Temporal history ({@link
 * com.crmflow.workflow.history.HistoryPayloads}) and what one workflow task may carry ({@link
 * com.crmflow.workflow.history.WorkflowTaskBudget}), so that no payload or task goes over what a
 * Temporal server takes.
 */
package com.crmflow.workflow.history;
