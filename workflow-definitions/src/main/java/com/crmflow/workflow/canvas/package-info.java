/**
 * A flow's canvas as the interpreter reads it: nodes, edges, the node types, and which config
 * values are secrets. The bottom of the engine's layers: it depends on no other package of the
 * engine but the templates.
 */
package com.crmflow.workflow.canvas;
