package com.crmflow.api.support;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two transactions that take the same rows, on connections of a test's own: one holds rows while
 * the code under test runs beside it until it waits for them. A lock order that differs from the
 * holder's then deadlocks, and PostgreSQL aborts one of the two with "deadlock detected".
 */
public final class RowLocks {

  private RowLocks() {}

  /** The PostgreSQL backend serving the connection. */
  public static int backendPid(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("select pg_backend_pid()")) {
      result.next();
      return result.getInt(1);
    }
  }

  /** Runs one statement with positional parameters on the connection (in its transaction). */
  public static void update(Connection connection, String sql, Object... params)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        statement.setObject(i + 1, params[i]);
      }
      statement.executeUpdate();
    }
  }

  /** Waits until some other backend waits for a lock the backend {@code pid} holds. */
  public static void awaitSomeoneWaitingFor(JdbcClient jdbc, int pid) {
    await().atMost(Patience.EVENTUALLY).until(() -> someoneWaitingFor(jdbc, pid));
  }

  /** Whether some other backend waits for a lock the backend {@code pid} holds. */
  public static boolean someoneWaitingFor(JdbcClient jdbc, int pid) {
    return jdbc.sql(
            """
            select exists (select from pg_stat_activity where :pid = any (pg_blocking_pids(pid)))
            """)
        .param("pid", pid)
        .query(Boolean.class)
        .single();
  }
}
