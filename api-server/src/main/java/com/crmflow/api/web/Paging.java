package com.crmflow.api.web;

/**
 * Validated limit/offset of a list endpoint: limit 1 to 100 (default 50), offset 0 or more (default
 * 0). Out-of-range values are a 400 naming the parameter, not silently clamped.
 */
public record Paging(int limit, int offset) {

  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 100;
  public static final int MAX_OFFSET = 1_000_000;

  /** A list's {@code search} term is at most this long (400 beyond). */
  public static final int MAX_SEARCH_LENGTH = 200;

  /** The search term, checked: at most {@link #MAX_SEARCH_LENGTH} characters. */
  public static String search(String search) {
    if (search != null && search.length() > MAX_SEARCH_LENGTH) {
      throw ApiException.badRequest(
          "search", "must be at most " + MAX_SEARCH_LENGTH + " characters");
    }
    return search;
  }

  public static Paging of(Integer limit, Integer offset) {
    int l = limit == null ? DEFAULT_LIMIT : limit;
    int o = offset == null ? 0 : offset;
    if (l < 1 || l > MAX_LIMIT) {
      throw ApiException.badRequest("limit", "must be between 1 and " + MAX_LIMIT);
    }
    if (o < 0 || o > MAX_OFFSET) {
      throw ApiException.badRequest("offset", "must be between 0 and " + MAX_OFFSET);
    }
    return new Paging(l, o);
  }
}
