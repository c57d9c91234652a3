/**
 * One class per node type ({@link com.crmflow.workflow.node.NodeExecutor}): its {@link
 * com.crmflow.workflow.node.NodeDescriptor} (config fields with their kinds, limits and secrets,
 * what it reads and writes, palette entry, outputs) and what the node does in a run. {@link
 * com.crmflow.workflow.node.NodeExecutors} lists the built-in types and makes the catalog of a
 * process's types ({@code with}: the built-in ones and its executor beans); a {@link
 * com.crmflow.workflow.node.NodeCatalog} finds them by name and says which start a flow. Adding a
 * node type is a new class and a line in {@code NodeExecutors}, or a bean; every other part reads
 * its descriptor.
 */
package com.crmflow.workflow.node;
