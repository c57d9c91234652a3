package com.crmflow.api.web;

/** Converts Java property names to the snake_case names clients see in JSON. */
public final class JsonNames {

  private JsonNames() {}

  public static String snakeCase(String javaName) {
    StringBuilder out = new StringBuilder(javaName.length() + 4);
    for (char c : javaName.toCharArray()) {
      if (Character.isUpperCase(c)) {
        out.append('_').append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
