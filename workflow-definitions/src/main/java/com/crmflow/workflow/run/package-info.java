/**
 * The canvas interpreter (AutomationRunWorkflow): the walk through the graph, joins, failures,
 * cancel, the node log, and the limits that keep a run's history within what Temporal takes.
 */
package com.crmflow.workflow.run;
