/**
 * The offline generator: a prompt read by rules, with no network. {@link
 * com.crmflow.api.generate.rules.PhraseBook} puts German, French and Spanish into the English the
 * rules read; the clause parser cuts the prompt into clauses; one builder per node type turns a
 * clause into its node; {@link com.crmflow.api.generate.rules.RuleBasedFlowGenerator} drives them.
 */
package com.crmflow.api.generate.rules;
