/**
 * The Temporal side shared by api-server and the worker: workflow interfaces and implementations,
 * the activity interfaces they call, the task queues and the search attributes.
 */
package com.crmflow.workflow;
