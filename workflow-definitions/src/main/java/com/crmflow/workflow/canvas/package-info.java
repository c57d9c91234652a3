/**
 * A flow's canvas as the interpreter reads it: nodes, edges and the node types' names (which config
 * values are secrets is the node types' descriptors', in {@code node}). The bottom of the engine's
 * layers: it depends on no other package of the engine but the templates.
 */
package com.crmflow.workflow.canvas;
