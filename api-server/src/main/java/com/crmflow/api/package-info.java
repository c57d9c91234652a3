/**
 * The api-server: the REST API over the CRM data, the canvases and the runs, the activities that
 * touch that data, and (on embedded defaults) the worker that runs the flows. Each feature is a
 * package of its own.
 */
package com.crmflow.api;
