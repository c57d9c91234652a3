/**
 * What a node type is made of, for the built-in types ({@code node.builtin}) and a process's own
 * alike: its class ({@link com.crmflow.workflow.node.NodeExecutor}) and {@link
 * com.crmflow.workflow.node.NodeDescriptor} (config fields with their kinds, limits and secrets,
 * what it reads and writes, palette entry, outputs), what it is given in a run ({@link
 * com.crmflow.workflow.node.NodeRun}, {@link com.crmflow.workflow.node.NodeConfig}), how it calls
 * its activities ({@link com.crmflow.workflow.node.NodeActivity}, {@link
 * com.crmflow.workflow.node.NodeActivities}) and how it ends otherwise than passed ({@link
 * com.crmflow.workflow.node.NodeFailure}, {@link com.crmflow.workflow.node.NodeSkipped}); and what
 * the engine reads of a flow through its types' descriptors: a {@link
 * com.crmflow.workflow.node.NodeCatalog} finds them by name and says which start a flow, {@link
 * com.crmflow.workflow.node.FlowAccess} what a flow reads and writes, {@link
 * com.crmflow.workflow.node.NodeSecrets} its secrets, {@link com.crmflow.workflow.node.FlowGoal}
 * its goal. Nothing here names a built-in type: adding one is a new class and a line in {@code
 * BuiltInNodes}, or a bean; every other part reads its descriptor.
 */
package com.crmflow.workflow.node;
