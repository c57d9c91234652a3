package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.UncategorizedSQLException;

/**
 * The advice's answer for a value that got past every check where it is read: one the database
 * refuses as too long or out of range is the request's (400), where any other failure of the
 * database is the service's (500).
 */
class ProblemDetailsAdviceTest {

  private final ProblemDetailsAdvice advice = new ProblemDetailsAdvice();

  private static UncategorizedSQLException refused(String sqlState) {
    return new UncategorizedSQLException(
        "insert", "insert into t values (?)", new SQLException("refused", sqlState));
  }

  private static ProblemDetail problem(ResponseEntity<Object> answer, int status) {
    assertThat(answer.getStatusCode().value()).isEqualTo(status);
    assertThat(answer.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
    return (ProblemDetail) answer.getBody();
  }

  @Test
  void aValueTheDatabaseRefusesAsTooLongOrOutOfRangeIsA400() {
    // string_data_right_truncation, numeric_value_out_of_range, datetime_field_overflow, and an
    // index entry over its limit
    for (String state : new String[] {"22001", "22003", "22008", "54000"}) {
      ProblemDetail problem = problem(advice.handleDataAccess(refused(state)), 400);
      assertThat(problem.getProperties()).containsKey("errors");
      assertThat(problem.getProperties().get("errors").toString())
          .as(state)
          .contains("request", "too long or out of range");
    }
  }

  @Test
  void anyOtherFailureOfTheDatabaseIsA500ThatRevealsNothing() {
    ProblemDetail deadlock = problem(advice.handleDataAccess(refused("40P01")), 500);
    assertThat(deadlock.getDetail()).isEqualTo("An unexpected error occurred.");
    ProblemDetail noState =
        problem(
            advice.handleDataAccess(new DataIntegrityViolationException("table crm_secret_x")),
            500);
    assertThat(noState.getDetail()).isEqualTo("An unexpected error occurred.");
  }
}
