/**
 * The product's workflows as a host uses them: a worker registers them, a starter names the changes
 * a fresh run takes. The top of the engine's layers.
 */
package com.crmflow.workflow.registration;
