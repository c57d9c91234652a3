package com.crmflow.api.joblease;

import java.time.Duration;
import java.util.Optional;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The lease of a job table's oldest running job: any api-server takes it once no live one holds it
 * (its lease ran out, or it is the caller's), so a job whose api-server died goes on elsewhere. A
 * job table has {@code id, status, created_at, leased_by, lease_until} and an index on {@code
 * created_at} where {@code status = 'running'}.
 */
public final class JobLeases {

  private JobLeases() {}

  /**
   * Takes the oldest running job of {@code table} that no live api-server holds, and holds it until
   * {@code lease} from now.
   *
   * @param table the job table (a constant of the caller's, never input)
   * @param columns the columns the mapper reads
   */
  public static <T> Optional<T> leaseOldest(
      JdbcClient jdbc,
      String table,
      String columns,
      String holder,
      Duration lease,
      RowMapper<T> mapper) {
    return jdbc.sql(
            """
            update %1$s set leased_by = :holder,
                lease_until = now() + make_interval(secs => :lease)
            where id = (
                select id from %1$s
                where status = 'running'
                  and (lease_until is null or lease_until < now() or leased_by = :holder)
                order by created_at limit 1
                for update skip locked)
            returning %2$s
            """
                .formatted(table, columns))
        .param("holder", holder)
        .param("lease", lease.toSeconds())
        .query(mapper)
        .optional();
  }
}
