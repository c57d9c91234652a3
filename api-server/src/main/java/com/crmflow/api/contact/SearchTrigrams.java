package com.crmflow.api.contact;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Which trigrams of a search term are rare among the contacts, and whether the term itself is
 * common.
 *
 * <p>The trigram index answers {@code like '%term%'} by reading the entries of every trigram of the
 * term. A trigram that nearly every contact holds ({@code use} when every email starts with "user",
 * {@code com}, {@code gma}) has an entry of a million rows, about 10 ms to read, though the term
 * itself may match ten contacts. A search therefore asks the index only for the term's rare
 * trigrams and checks the whole term on the rows it finds.
 *
 * <p>A term whose trigrams are all common may match a few contacts or a tenth of them. When it
 * matches many, the table itself finds its first matches at once, while the index would first read
 * entries of hundreds of thousands of rows (200 ms for "company 42" at a million contacts); which
 * of the two PostgreSQL's planner picks turns on the sample its statistics hold of the column. So a
 * term is first tried on the tenant's sampled search texts, and one that {@link #COMMON_TERM_SHARE}
 * of them hold is searched by the table. A tenant with fewer than {@link #MIN_TENANT_TEXTS} of them
 * is left to the planner: it is small enough for either way.
 *
 * <p>Both come from a sample of the contact table (all tenants: the index is shared, so that is
 * what its entries cost), taken in the background at most every {@link #RESAMPLE_EVERY_NANOS}.
 * Below {@link #MIN_ROWS} rows every entry is short, and the term's whole pattern is used.
 */
@Component
class SearchTrigrams {

  private static final Logger log = LoggerFactory.getLogger(SearchTrigrams.class);

  /**
   * A trigram that at least this share of the contacts holds is common: its entry costs more to
   * read than checking the term on the rows the rarer ones find.
   */
  static final double COMMON_SHARE = 0.05;

  /**
   * A term that at least this share of the sampled contacts hold is searched by the table: its
   * first 100 matches come within about 20,000 rows, a few milliseconds.
   */
  static final double COMMON_TERM_SHARE = 0.005;

  /** A tenant with fewer sampled contacts is small: the planner chooses how to search it. */
  static final int MIN_TENANT_TEXTS = 1_000;

  /**
   * A term is tried on at most this many of a tenant's sampled contacts, a random part of them: a
   * rare term is tried on all of them, 0.2 ms for 17,000, and 4,000 tell a share of 0.5% (20 of
   * them) as well.
   */
  static final int MAX_TENANT_TEXTS = 4_000;

  /** The index is narrowed by at most this many of the rarest trigrams of a term. */
  static final int MAX_TRIGRAMS = 3;

  static final long MIN_ROWS = 50_000;

  private static final int SAMPLE_ROWS = 20_000;
  private static final long RESAMPLE_EVERY_NANOS = 10 * 60 * 1_000_000_000L;

  private final JdbcClient jdbc;
  private final AtomicBoolean sampling = new AtomicBoolean();

  /**
   * A sample's common trigrams, with the share of the sampled contacts that hold each; the sampled
   * contacts' search texts by tenant; and when it was taken.
   */
  private record Sample(
      Map<String, Double> common, Map<UUID, List<String>> textsByTenant, long takenAt) {}

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
    Sample latest = latest();
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

  /**
   * Whether at least {@link #COMMON_TERM_SHARE} of the tenant's sampled contacts hold the term;
   * false while there is no sample, and for a tenant with fewer than {@link #MIN_TENANT_TEXTS} of
   * them.
   */
  boolean isCommon(UUID tenantId, String term) {
    Sample latest = latest();
    List<String> texts = latest == null ? null : latest.textsByTenant().get(tenantId);
    if (texts == null || texts.size() < MIN_TENANT_TEXTS) {
      return false;
    }
    String needle = term.trim().toLowerCase(Locale.ROOT);
    int enough = (int) Math.ceil(COMMON_TERM_SHARE * texts.size());
    int holding = 0;
    for (String text : texts) {
      if (text.contains(needle) && ++holding >= enough) {
        return true;
      }
    }
    return false;
  }

  /** The latest sample, a new one started when it is due. */
  private Sample latest() {
    Sample latest = sample;
    if (latest == null || System.nanoTime() - latest.takenAt() >= RESAMPLE_EVERY_NANOS) {
      resampleInTheBackground();
    }
    return latest;
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
    Map<UUID, List<String>> textsByTenant = new HashMap<>();
    if (rows >= MIN_ROWS) {
      double percent = Math.min(100.0, 100.0 * SAMPLE_ROWS / rows);
      // the same pages for both queries
      double seed = ThreadLocalRandom.current().nextDouble();
      jdbc.sql(
              """
              with sample as (
                select search_text from contact tablesample system (:percent) repeatable (:seed))
              select trigram, count(*)::float8 / (select count(*) from sample) as share
              from sample, unnest(show_trgm(search_text)) trigram
              group by trigram
              having count(*) >= :commonShare * (select count(*) from sample)
              """)
          .param("percent", percent)
          .param("seed", seed)
          .param("commonShare", COMMON_SHARE)
          .query(
              (RowCallbackHandler)
                  rs -> shares.put(rs.getString("trigram"), rs.getDouble("share")));
      jdbc.sql(
              """
              select tenant_id, search_text
              from contact tablesample system (:percent) repeatable (:seed)
              where search_text is not null
              """)
          .param("percent", percent)
          .param("seed", seed)
          .query(
              (RowCallbackHandler)
                  rs ->
                      textsByTenant
                          .computeIfAbsent(
                              rs.getObject("tenant_id", UUID.class), tenant -> new ArrayList<>())
                          .add(rs.getString("search_text")));
    }
    // a table sample comes in the table's order, oldest contacts first: shuffled, then cut
    textsByTenant.replaceAll(
        (tenant, texts) -> {
          Collections.shuffle(texts);
          return List.copyOf(texts.subList(0, Math.min(texts.size(), MAX_TENANT_TEXTS)));
        });
    sample = new Sample(Map.copyOf(shares), Map.copyOf(textsByTenant), System.nanoTime());
  }
}
