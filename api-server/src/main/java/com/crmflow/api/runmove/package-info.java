/**
 * Moves a flow's waiting runs to another version of it: a dry run that says, from the run records
 * and node log, where they wait and which would move; a durable, paced job that asks each run's
 * workflow to move at its safe point ({@link com.crmflow.workflow.contract.RunMove}).
 */
package com.crmflow.api.runmove;
