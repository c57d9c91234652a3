/**
 * The names of the CRM events (contact.created, ...), shared by the outbox, webhooks and
 * crm_event_trigger nodes.
 */
package com.crmflow.workflow.event;
