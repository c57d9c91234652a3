/**
 * The outbox of CRM events: every change writes its event in its own transaction; the dispatcher
 * hands each one to the handlers (webhooks, CRM-event triggers) once.
 */
package com.crmflow.api.event;
