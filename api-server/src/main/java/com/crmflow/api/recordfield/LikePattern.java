package com.crmflow.api.recordfield;

import java.util.Locale;

/** Turns a user's search term into a case-insensitive "contains" LIKE pattern. */
public final class LikePattern {

  private LikePattern() {}

  /** null for a blank term (no filter); otherwise %term% with LIKE's wildcards escaped. */
  public static String contains(String term) {
    return term == null || term.isBlank() ? null : "%" + escaped(term) + "%";
  }

  /** term% with LIKE's wildcards escaped: what starts with the term. */
  public static String startsWith(String term) {
    return escaped(term) + "%";
  }

  private static String escaped(String term) {
    return term.trim()
        .toLowerCase(Locale.ROOT)
        .replace("\\", "\\\\")
        .replace("%", "\\%")
        .replace("_", "\\_");
  }
}
