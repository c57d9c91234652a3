/**
 * Node effects: the record a crm write left, so that a retried activity finds it instead of writing
 * twice.
 */
package com.crmflow.api.nodeeffect;
