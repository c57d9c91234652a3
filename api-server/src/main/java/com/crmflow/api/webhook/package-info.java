/**
 * Outbound webhooks: subscriptions, and one signed delivery workflow per event and subscription,
 * retried on a schedule.
 */
package com.crmflow.api.webhook;
