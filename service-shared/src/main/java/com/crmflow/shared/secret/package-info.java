/**
 * The cipher that seals secrets at rest with the deployment's key; the worker unseals the
 * credential headers of http_request nodes with it.
 */
package com.crmflow.shared.secret;
