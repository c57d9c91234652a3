package com.crmflow.api.web;

import java.util.Locale;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * How many rows a tenant has in a large list's table, kept by the triggers of migration 24 in the
 * transaction that adds or removes them: an exact total that costs a 16-row read, not a count.
 */
@Repository
public class TenantRowCounts {

  /** The tables whose rows are counted. */
  public enum CountedTable {
    CONTACT,
    OPPORTUNITY,
    CONVERSATION
  }

  private final JdbcClient jdbc;

  TenantRowCounts(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public long count(UUID tenantId, CountedTable table) {
    return jdbc.sql(
            """
            select coalesce(sum(row_count), 0) from tenant_row_count
            where tenant_id = :tenantId and table_name = :tableName
            """)
        .param("tenantId", tenantId)
        .param("tableName", table.name().toLowerCase(Locale.ROOT))
        .query(Long.class)
        .single();
  }
}
