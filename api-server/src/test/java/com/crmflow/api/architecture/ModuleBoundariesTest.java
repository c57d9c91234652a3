package com.crmflow.api.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.shared.outbound.OutboundHttpClient;
import com.crmflow.worker.InProcessWorker;
import com.crmflow.worker.activity.HttpRequestActivitiesImpl;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

/**
 * api-server reaches the workflow-worker module through {@link InProcessWorker} alone; what both
 * services use lives in service-shared. Checked on the compiled classes, so a fully qualified name
 * or a reference in an annotation counts as much as an import.
 */
class ModuleBoundariesTest {

  static final ArchRule API_SERVER_USES_ONLY_THE_WORKERS_ENTRY_POINT =
      noClasses()
          .that()
          .resideInAPackage("com.crmflow.api..")
          .should()
          .dependOnClassesThat(
              resideInAPackage("com.crmflow.worker..")
                  .and(not(equivalentTo(InProcessWorker.class))))
          .because(
              "api-server hosts the worker through InProcessWorker only; what both services use"
                  + " belongs in service-shared (com.crmflow.shared)");

  @Test
  void apiServerNamesNoWorkerClassButItsEntryPoint() {
    JavaClasses apiServer =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.crmflow.api");
    // the import found the application itself, so the rule below is not checked against nothing
    assertThat(apiServer.contain(com.crmflow.api.CrmApiApplication.class)).isTrue();

    API_SERVER_USES_ONLY_THE_WORKERS_ENTRY_POINT.check(apiServer);
  }

  @Test
  void theRuleCatchesAClassThatBorrowsAWorkerInternal() {
    EvaluationResult borrowing =
        API_SERVER_USES_ONLY_THE_WORKERS_ENTRY_POINT.evaluate(
            new ClassFileImporter().importClasses(BorrowsAWorkerInternal.class));
    assertThat(borrowing.hasViolation()).isTrue();
    assertThat(borrowing.getFailureReport().getDetails())
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains(BorrowsAWorkerInternal.class.getName())
                    .contains(HttpRequestActivitiesImpl.class.getName()));

    EvaluationResult allowed =
        API_SERVER_USES_ONLY_THE_WORKERS_ENTRY_POINT.evaluate(
            new ClassFileImporter().importClasses(UsesTheEntryPointAndTheSharedModule.class));
    assertThat(allowed.hasViolation()).isFalse();
  }

  /** What the rule forbids: an api-server class using a class of the worker's own. */
  static class BorrowsAWorkerInternal {
    HttpRequestActivitiesImpl activities;
  }

  /** What it allows: the worker's entry point, and the shared module. */
  static class UsesTheEntryPointAndTheSharedModule {
    Class<?> worker = InProcessWorker.class;
    OutboundHttpClient client;
  }
}
