/**
 * One class per node type ({@link com.crmflow.workflow.node.NodeExecutor}): the config it reads,
 * what that config must hold, and what the node does in a run. {@link
 * com.crmflow.workflow.node.NodeExecutors} is the registry; adding a node type is a new class and a
 * line there.
 */
package com.crmflow.workflow.node;
