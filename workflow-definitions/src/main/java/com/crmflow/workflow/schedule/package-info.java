/**
 * The schedule_trigger workflow: it sleeps until the next firing, across daylight-saving changes,
 * and starts a run each time.
 */
package com.crmflow.workflow.schedule;
