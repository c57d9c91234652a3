/**
 * POST /generate: a flow built from a plain-language prompt, drafted by a language model when one
 * is configured and by the offline parser ({@code generate.rules}) otherwise or when the model does
 * not answer.
 */
package com.crmflow.api.generate;
