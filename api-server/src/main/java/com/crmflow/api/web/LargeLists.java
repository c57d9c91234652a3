package com.crmflow.api.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The paging of the lists that grow to millions of rows (contacts, opportunities, conversations).
 *
 * <ul>
 *   <li>{@code total} is exact up to {@link #TOTAL_CAP}; beyond it, {@code total} is the cap and
 *       {@code total_exact} is false. Counting a million rows on every page would cost more than
 *       the page itself.
 *   <li>{@code offset} reaches the first {@link #MAX_DEPTH} rows. Past them, a page is read with
 *       the cursor: {@code after} set to the {@code next_after} of the page before.
 * </ul>
 */
public final class LargeLists {

  public static final int TOTAL_CAP = 10_000;

  /** A search's total is exact up to this many matches: counting further costs a scan. */
  public static final int SEARCH_TOTAL_CAP = 1_000;

  public static final int MAX_DEPTH = 10_000;

  private LargeLists() {}

  /** The limit, offset and cursor of a request, each checked (400 naming the parameter). */
  public record Request(int limit, int offset, Cursor after) {

    public static Request of(Integer limit, Integer offset, String after) {
      Paging paging = Paging.of(limit, offset);
      if (after != null && !after.isBlank() && paging.offset() > 0) {
        throw ApiException.badRequest("after", "cannot be combined with offset");
      }
      if (paging.offset() + paging.limit() > MAX_DEPTH) {
        throw ApiException.badRequest(
            "offset",
            "offset and limit reach the first "
                + MAX_DEPTH
                + " rows; read further with the cursor: send the next_after of a page as after");
      }
      return new Request(
          paging.limit(),
          paging.offset(),
          after == null || after.isBlank() ? null : Cursor.parse(after));
    }
  }

  /**
   * The answer {@code {<name>: rows, total, total_exact, limit, offset, next_after}}.
   *
   * @param counted the rows counted, at most {@code cap} + 1
   * @param cap the count past which the total is not exact
   * @param cursorOf the cursor after a row; null when the list takes no cursor
   */
  public static <T> Map<String, Object> answer(
      String name,
      List<T> rows,
      long counted,
      int cap,
      Request request,
      Function<T, Cursor> cursorOf) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put(name, rows);
    boolean exact = counted <= cap;
    response.put("total", exact ? counted : cap);
    response.put("total_exact", exact);
    response.put("limit", request.limit());
    response.put("offset", request.offset());
    response.put(
        "next_after",
        cursorOf == null || rows.size() < request.limit()
            ? null
            : cursorOf.apply(rows.get(rows.size() - 1)).token());
    return response;
  }
}
