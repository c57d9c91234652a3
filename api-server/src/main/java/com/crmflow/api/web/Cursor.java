package com.crmflow.api.web;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.UUID;

/**
 * Where a page of a newest-first list ends: the sort time and id of its last row, sent back as
 * {@code after} to read the next page by the index instead of skipping rows. Opaque to clients.
 */
public record Cursor(OffsetDateTime at, UUID id) {

  /** The cursor a client sent; a 400 naming {@code after} when it is not one of ours. */
  public static Cursor parse(String token) {
    try {
      String[] parts =
          new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8).split("\\.", 2);
      long micros = Long.parseLong(parts[0]);
      Instant at = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
      return new Cursor(OffsetDateTime.ofInstant(at, ZoneOffset.UTC), UUID.fromString(parts[1]));
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      throw ApiException.badRequest("after", "is not a cursor this API gave (next_after)");
    }
  }

  public String token() {
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, at.toInstant());
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((micros + "." + id).getBytes(StandardCharsets.UTF_8));
  }
}
