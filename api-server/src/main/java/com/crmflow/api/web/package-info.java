/**
 * The API's errors and paging: RFC 9457 problem details for every refusal, the request size limit,
 * and the page parameters every list takes.
 */
package com.crmflow.api.web;
