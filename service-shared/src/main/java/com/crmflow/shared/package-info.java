/**
 * What api-server and the workflow-worker share, so that neither imports the other's internals:
 * outbound calls ({@code outbound}), the secret cipher ({@code secret}), text helpers ({@code
 * text}), and the configuration that makes their beans ({@link
 * com.crmflow.shared.SharedServicesConfig}).
 */
package com.crmflow.shared;
