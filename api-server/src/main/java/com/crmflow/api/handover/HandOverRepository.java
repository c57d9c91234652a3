package com.crmflow.api.handover;

import com.crmflow.shared.outbound.HandOverLedger;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Hand-over marks of email and chat nodes run in this process (table hand_over). Each mark commits
 * on its own, even inside a caller's transaction: it must be durable before the message goes out.
 */
@Repository
class HandOverRepository implements HandOverLedger {

  private final JdbcClient jdbc;

  HandOverRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  @Override
  public Optional<String> state(String effectKey) {
    return jdbc.sql("select state from hand_over where effect_key = :key")
        .param("key", effectKey)
        .query(String.class)
        .optional();
  }

  @Override
  @Transactional(propagation = Propagation.REQUIRES_NEW)
  public void record(String effectKey, String state) {
    jdbc.sql(
            """
            insert into hand_over (effect_key, state) values (:key, :state)
            on conflict (effect_key) do update set state = excluded.state, updated_at = now()
            """)
        .param("key", effectKey)
        .param("state", state)
        .update();
  }
}
