/**
 * Chat integrations (Slack-compatible): the tenant's bot token, stored encrypted, and the activity
 * that posts chat_message nodes.
 */
package com.crmflow.api.chat;
