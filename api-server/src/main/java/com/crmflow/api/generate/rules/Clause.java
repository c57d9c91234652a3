package com.crmflow.api.generate.rules;

import java.util.Locale;

/**
 * One clause of a prompt, as written (what labels, subjects and URLs are taken from) and in lower
 * case (what the rules match against).
 */
record Clause(String text, String lower) {

  static Clause of(String text) {
    return new Clause(text, text.toLowerCase(Locale.ROOT));
  }
}
