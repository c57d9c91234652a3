/** The product's workflows as a worker registers them: the top of the engine's layers. */
package com.crmflow.workflow.registration;
