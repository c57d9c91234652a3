package com.crmflow.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.UncategorizedSQLException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.JsonNodeException;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The advice's answers for what a request's value costs past every check where it is read: a value
 * the database refuses as too long or out of range, and a JSON value that cannot be read as its
 * field needs, are the request's (400), where any other failure of the database is the service's
 * (500).
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

  @Test
  void aJsonValueThatCannotBeReadAsItsFieldNeedsIsA400NamingTheBody() {
    JsonNode huge = JsonNodeFactory.instance.numberNode(new java.math.BigInteger("9".repeat(400)));
    JsonNodeException unreadable = null;
    try {
      huge.asLong();
    } catch (JsonNodeException e) {
      unreadable = e;
    }
    assertThat(unreadable).as("Jackson refuses the value as a long").isNotNull();

    ProblemDetail problem = problem(advice.handleJsonNode(unreadable), 400);

    assertThat(problem.getProperties().get("errors").toString())
        .contains("body", "out of the range its field takes");
  }
}
