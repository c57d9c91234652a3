/**
 * The first start: the optional bootstrap key, and the banner that says where the API and the
 * Temporal UI are.
 */
package com.crmflow.api.bootstrap;
