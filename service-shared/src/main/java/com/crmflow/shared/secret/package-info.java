/**
 * The cipher that seals secrets at rest with the deployment's key: api-server seals chat bot
 * tokens, webhook signing secrets and canvas node secrets with it; the worker unseals the
 * credential headers of http_request nodes.
 */
package com.crmflow.shared.secret;
