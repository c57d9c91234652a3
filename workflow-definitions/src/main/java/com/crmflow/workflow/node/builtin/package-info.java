/**
 * The built-in node types, one class each (email, delay, wait_until, condition, split,
 * http_request, chat_message, crm_update, create_record, data_transform and the three triggers),
 * the helpers only they use (a send window's wait, branch edges, record writes, the evaluation of
 * condition and data_transform), and their list ({@link
 * com.crmflow.workflow.node.builtin.BuiltInNodes}). They are written against the public interface
 * of a node type ({@code com.crmflow.workflow.node}), as a node type of a process's own is; nothing
 * outside the engine's upper layers names them.
 */
package com.crmflow.workflow.node.builtin;
