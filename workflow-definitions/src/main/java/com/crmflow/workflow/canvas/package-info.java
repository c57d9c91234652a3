/**
 * A flow's canvas as the interpreter reads it: nodes, edges, the node types, the rules a canvas
 * must meet to be saved or activated, and which config values are secrets.
 */
package com.crmflow.workflow.canvas;
