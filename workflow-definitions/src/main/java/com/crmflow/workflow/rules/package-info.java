/**
 * The rules a canvas must meet to be saved or activated ({@link
 * com.crmflow.workflow.rules.CanvasRules}): the graph's shape, each node's config as its {@link
 * com.crmflow.workflow.node.NodeExecutor} checks it, and the variables its templates read.
 */
package com.crmflow.workflow.rules;
