/**
 * How a run starts from outside: the public webhook trigger (a thin controller over
 * TriggerService), each tenant's quota of trigger calls (TriggerQuotas, set through the admin API),
 * and the CRM-event triggers. Their runs begin through run's RunBeginnings, whose admission keeps
 * accepted runs on time under a flood and shares them fairly between tenants.
 */
package com.crmflow.api.trigger;
