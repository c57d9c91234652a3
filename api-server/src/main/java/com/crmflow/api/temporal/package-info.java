/**
 * What the service keeps in line with Temporal: its search attributes, and the sweep that ends
 * records whose workflow closed without telling us.
 */
package com.crmflow.api.temporal;
