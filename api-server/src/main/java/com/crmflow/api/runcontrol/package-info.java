/**
 * What a flow's pause, archive and resume do to its runs in progress: hold them before their next
 * node, release them, or end them at their next safe point, asked of each run by a durable, paced
 * job ({@link com.crmflow.api.runcontrol.RunControls}).
 */
package com.crmflow.api.runcontrol;
