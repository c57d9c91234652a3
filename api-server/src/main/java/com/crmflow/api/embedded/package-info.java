/**
 * The embedded defaults: PostgreSQL and the Temporal CLI's dev server started as child processes
 * under the data directory, found or built, restarted when they die, and explained when they cannot
 * start.
 */
package com.crmflow.api.embedded;
