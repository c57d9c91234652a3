/**
 * Conversations and their messages: the REST endpoints under /api/v1/conversations, their rules and
 * their SQL.
 */
package com.crmflow.api.conversation;
