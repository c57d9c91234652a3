package com.crmflow.api.contact;

import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Which trigrams of a search term are rare among the contacts.
 *
 * <p>The trigram index answers {@code like '%term%'} by reading the entries of every trigram of the
 * term. A trigram that nearly every contact holds ({@code use} when every email starts with "user",
 * {@code com}, {@code gma}) has an entry of a million rows, about 10 ms to read, though the term
 * itself may match ten contacts. A search therefore asks the index only for the term's rare
 * trigrams and checks the whole term on the rows it finds.
 *
 * <p>How common a trigram is comes from a sample of the contact table (all tenants: the index is
 * shared, so that is what its entries cost), taken in the background at most every {@link
 * #RESAMPLE_EVERY_NANOS}. Below {@link #MIN_ROWS} rows every entry is short, and the term's whole
 * pattern is used.
 */
@Component
class SearchTrigrams {

  private static final Logger log = LoggerFactory.getLogger(SearchTrigrams.class);

  /**
   * A trigram that at least this share of the contacts holds is common: its entry costs more to
   * read than checking the term on the rows the rarer ones find.
   */
  static final double COMMON_SHARE = 0.05;

  /** The index is narrowed by at most this many of the rarest trigrams of a term. */
  static final int MAX_TRIGRAMS = 3;

  static final long MIN_ROWS = 50_000;

  private static final int SAMPLE_ROWS = 20_000;
  private static final long RESAMPLE_EVERY_NANOS = 10 * 60 * 1_000_000_000L;

  private final JdbcClient jdbc;
  private final AtomicBoolean sampling = new AtomicBoolean();

  /**
   * A sample's common trigrams, with the share of the sampled contacts that hold each, and when it
   * was taken.
   */
  private record Sample(Map<String, Double> common, long takenAt) {}

  /** The latest sample; null until the first is taken. */
  private volatile Sample sample;

  SearchTrigrams(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * The term's rarest trigrams (at most {@link #MAX_TRIGRAMS}), when it has a rare one and common
   * ones to leave out; otherwise empty, and the whole pattern is the better index condition.
   * Trigrams are taken from the runs of ASCII letters and digits of the term, as the index holds
   * them whatever the database's locale.
   */
  List<String> rareTrigrams(String term) {
    Sample latest = sample;
    if (latest == null || System.nanoTime() - latest.takenAt() >= RESAMPLE_EVERY_NANOS) {
      resampleInTheBackground();
    }
    Map<String, Double> shares = latest == null ? Map.of() : latest.common();
    if (shares.isEmpty()) {
      return List.of();
    }
    Set<String> trigrams = trigramsOf(term.trim().toLowerCase(Locale.ROOT));
    List<String> rare =
        trigrams.stream()
            .filter(t -> shares.getOrDefault(t, 0.0) < COMMON_SHARE)
            .sorted(Comparator.comparingDouble((String t) -> shares.getOrDefault(t, 0.0)))
            .limit(MAX_TRIGRAMS)
            .toList();
    return rare.isEmpty() || rare.size() == trigrams.size() ? List.of() : rare;
  }

  static Set<String> trigramsOf(String lowerTerm) {
    Set<String> trigrams = new LinkedHashSet<>();
    int runStart = 0;
    for (int i = 0; i <= lowerTerm.length(); i++) {
      if (i == lowerTerm.length() || !isAsciiLetterOrDigit(lowerTerm.charAt(i))) {
        for (int at = runStart; at + 3 <= i; at++) {
          trigrams.add(lowerTerm.substring(at, at + 3));
        }
        runStart = i + 1;
      }
    }
    return trigrams;
  }

  private static boolean isAsciiLetterOrDigit(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private void resampleInTheBackground() {
    if (sampling.compareAndSet(false, true)) {
      CompletableFuture.runAsync(
          () -> {
            try {
              resample();
            } catch (RuntimeException e) {
              log.warn("Could not sample the contacts' search trigrams", e);
            } finally {
              sampling.set(false);
            }
          });
    }
  }

  /** Samples the contact table now (the search reads the result from then on). */
  void resample() {
    double rows =
        jdbc.sql("select greatest(reltuples, 0) from pg_class where oid = 'contact'::regclass")
            .query(Double.class)
            .single();
    Map<String, Double> shares = new HashMap<>();
    if (rows >= MIN_ROWS) {
      double percent = Math.min(100.0, 100.0 * SAMPLE_ROWS / rows);
      jdbc.sql(
              """
              with sample as (
                select search_text from contact tablesample system (:percent))
              select trigram, count(*)::float8 / (select count(*) from sample) as share
              from sample, unnest(show_trgm(search_text)) trigram
              group by trigram
              having count(*) >= :commonShare * (select count(*) from sample)
              """)
          .param("percent", percent)
          .param("commonShare", COMMON_SHARE)
          .query(
              (RowCallbackHandler)
                  rs -> shares.put(rs.getString("trigram"), rs.getDouble("share")));
    }
    sample = new Sample(Map.copyOf(shares), System.nanoTime());
  }
}
