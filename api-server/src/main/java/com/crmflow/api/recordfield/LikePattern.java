package com.crmflow.api.recordfield;

import java.util.Locale;

/** Turns a user's search term into a case-insensitive "contains" LIKE pattern. */
public final class LikePattern {

  private LikePattern() {}

  /** null for a blank term (no filter); otherwise %term% with LIKE's wildcards escaped. */
  public static String contains(String term) {
    if (term == null || term.isBlank()) {
      return null;
    }
    String escaped =
        term.trim()
            .toLowerCase(Locale.ROOT)
            .replace("\\", "\\\\")
            .replace("%", "\\%")
            .replace("_", "\\_");
    return "%" + escaped + "%";
  }
}
