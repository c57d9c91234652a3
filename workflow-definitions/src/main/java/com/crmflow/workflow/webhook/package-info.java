/**
 * The webhook delivery workflow: one event to one subscription, retried on the configured schedule.
 */
package com.crmflow.workflow.webhook;
