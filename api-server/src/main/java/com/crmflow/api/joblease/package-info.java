/**
 * Durable jobs that any api-server takes by lease (a bulk enrollment, a flow's ask of its runs in
 * progress): the lease of the oldest running job that no live api-server holds.
 */
package com.crmflow.api.joblease;
