/**
 * How a run starts from outside: the public webhook trigger (a thin controller over
 * TriggerService), its admission, which keeps accepted runs on time under a flood, and the CRM-
 * event triggers.
 */
package com.crmflow.api.trigger;
