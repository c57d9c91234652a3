/**
 * Send windows: the time zone of a window set to the contact's zone, read where the contact, the
 * flow's settings and the tenant are.
 */
package com.crmflow.api.sendwindow;
