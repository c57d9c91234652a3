package com.crmflow.workflow;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.workflow.canvas.ReachesTheInterpreter;
import com.crmflow.workflow.node.NamesABuiltInType;
import com.crmflow.workflow.run.AutomationRunWorkflowImpl;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages in layers without cycles: canvas (the model) → contract (the run's input,
 * result and node log) → history (sizing) → node (what a node type is made of) → node.builtin (the
 * built-in types) → rules (the canvas rules) → run (the interpreter), with the names every layer
 * uses (this package's task queues and search attributes, event names, templates, activity
 * interfaces) at the bottom and the workflows that use the interpreter on top. So a node type of a
 * process's own is written against what the built-in ones are, and nothing below the rules names a
 * built-in type. Checked on the compiled classes, so a fully qualified name counts as much as an
 * import.
 */
class EngineLayersTest {

  private static final String ENGINE = "com.crmflow.workflow";

  /**
   * Each class's package below {@value #ENGINE} ({@code node.builtin}); this package is one too.
   */
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String name = javaClass.getPackageName();
          if (name.equals(ENGINE)) {
            return SliceIdentifier.of(ENGINE);
          }
          if (name.startsWith(ENGINE + ".")) {
            return SliceIdentifier.of(name.substring(ENGINE.length() + 1));
          }
          return SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "the packages of workflow-definitions";
        }
      };

  static final ArchRule NO_CYCLES = slices().assignedFrom(PACKAGES).should().beFreeOfCycles();

  static final ArchRule LAYERS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .ensureAllClassesAreContainedInArchitecture()
          .layer("Names")
          .definedBy(ENGINE, ENGINE + ".event..", ENGINE + ".template..", ENGINE + ".action..")
          .layer("Canvas")
          .definedBy(ENGINE + ".canvas..")
          .layer("Contract")
          .definedBy(ENGINE + ".contract..")
          .layer("History")
          .definedBy(ENGINE + ".history..")
          .layer("Nodes")
          .definedBy(ENGINE + ".node")
          .layer("BuiltInNodes")
          .definedBy(ENGINE + ".node.builtin..")
          .layer("Rules")
          .definedBy(ENGINE + ".rules..")
          .layer("Interpreter")
          .definedBy(ENGINE + ".run..")
          .layer("Workflows")
          .definedBy(
              ENGINE + ".enrollment..",
              ENGINE + ".schedule..",
              ENGINE + ".webhook..",
              ENGINE + ".registration..")
          .whereLayer("Interpreter")
          .mayOnlyBeAccessedByLayers("Workflows")
          .whereLayer("Rules")
          .mayOnlyBeAccessedByLayers("Interpreter", "Workflows")
          .whereLayer("BuiltInNodes")
          .mayOnlyBeAccessedByLayers("Rules", "Interpreter", "Workflows")
          .whereLayer("Nodes")
          .mayOnlyBeAccessedByLayers("BuiltInNodes", "Rules", "Interpreter", "Workflows")
          .whereLayer("History")
          .mayOnlyBeAccessedByLayers("Nodes", "BuiltInNodes", "Rules", "Interpreter", "Workflows")
          .whereLayer("Contract")
          .mayOnlyBeAccessedByLayers(
              "History", "Nodes", "BuiltInNodes", "Rules", "Interpreter", "Workflows")
          .whereLayer("Canvas")
          .mayOnlyBeAccessedByLayers(
              "Contract", "History", "Nodes", "BuiltInNodes", "Rules", "Interpreter", "Workflows");

  private static JavaClasses engine() {
    JavaClasses engine =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ENGINE);
    // the import found the engine itself, so the rules are not checked against nothing
    assertThat(engine.contain(AutomationRunWorkflowImpl.class)).isTrue();
    return engine;
  }

  @Test
  void theEnginesPackagesAreFreeOfCycles() {
    NO_CYCLES.check(engine());
  }

  @Test
  void theEnginesPackagesFollowTheLayerOrder() {
    LAYERS.check(engine());
  }

  @Test
  void theRulesCatchAModelClassThatReachesTheInterpreter() {
    assertTheRulesCatch(ReachesTheInterpreter.class);
  }

  @Test
  void theRulesCatchANodeInterfaceClassThatNamesABuiltInType() {
    assertTheRulesCatch(NamesABuiltInType.class);
  }

  /** The engine's classes and {@code upward}, a class that reaches a layer above its own. */
  private static void assertTheRulesCatch(Class<?> upward) {
    JavaClasses withAnUpwardReach =
        new ClassFileImporter()
            .withImportOption(
                location ->
                    ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                        || location.contains(upward.getSimpleName()))
            .importPackages(ENGINE);
    assertThat(withAnUpwardReach.contain(upward)).isTrue();

    for (ArchRule rule : List.of(NO_CYCLES, LAYERS)) {
      EvaluationResult result = rule.evaluate(withAnUpwardReach);
      assertThat(result.hasViolation()).as(rule.getDescription()).isTrue();
      assertThat(result.getFailureReport().getDetails())
          .anySatisfy(line -> assertThat(line).contains(upward.getName()));
    }
  }
}
