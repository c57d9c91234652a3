package com.crmflow.shared.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL text and jsonb cannot hold the character U+0000, NUL, so one that a receiver sends
 * back (escaped in a JSON string, or as a raw byte) would make every later write of the run fail:
 * its node log, its error, a CRM record filled from it. Activities replace it, as they take a
 * response in, with U+FFFD, the character Unicode reserves for what could not be represented.
 */
public final class NulCharacters {

  static final char NUL = 0;
  static final char REPLACEMENT = '\uFFFD';

  private NulCharacters() {}

  public static String replaced(String text) {
    return text == null || text.indexOf(NUL) < 0 ? text : text.replace(NUL, REPLACEMENT);
  }

  /**
   * A value read from this JSON text (strings, and maps and lists of them), without NUL. Only a
   * text that escapes the character can hold one, so any other answer is not walked or copied.
   */
  public static Object replacedIn(Object parsed, String json) {
    return json.contains("\\u0000") ? replacedIn(parsed) : parsed;
  }

  private static Object replacedIn(Object value) {
    if (value instanceof String text) {
      return replaced(text);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((key, item) -> copy.put(replaced(String.valueOf(key)), replacedIn(item)));
      return copy;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(item -> copy.add(replacedIn(item)));
      return copy;
    }
    return value;
  }
}
