/**
 * The node types api-server knows: every {@link com.crmflow.workflow.node.NodeExecutor} bean beside
 * the built-in ones ({@link com.crmflow.api.nodetype.NodeTypes}), and {@code GET
 * /api/v1/node-types}, from which the console builds its palette and config forms.
 */
package com.crmflow.api.nodetype;
