/**
 * schedule_trigger nodes: one workflow per active schedule, started, stopped and restarted as the
 * automation changes.
 */
package com.crmflow.api.schedule;
