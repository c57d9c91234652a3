/**
 * Custom fields: their definitions per record type (at most 50), the checks of their values, and
 * the values stored with the records.
 */
package com.crmflow.api.customfield;
