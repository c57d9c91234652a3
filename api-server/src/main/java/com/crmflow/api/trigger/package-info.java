/**
 * How a run starts from outside: the public webhook trigger (a thin controller over
 * TriggerService), each tenant's quota of trigger calls (TriggerQuotas, set through the admin API),
 * its admission, which keeps accepted runs on time under a flood and shares them fairly between
 * tenants, and the CRM-event triggers.
 */
package com.crmflow.api.trigger;
