package com.crmflow.api.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.crmflow.api.web.ImportsUpForTheFloorsTest;
import com.crmflow.workflow.node.NodeCatalog;
import com.crmflow.workflow.node.builtin.BuiltInNodes;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * api-server's packages stand in floors, each using only the floors below it (and its own), with no
 * cycle among them, so that a package can be read with what it stands on and nothing above it. From
 * the ground up: the foundation (the web layer, settings, who is calling, the stores and clients
 * every feature uses), the tenancy (tenants, keys and their authentication), the CRM's records, the
 * flows, their runs, what starts and steers runs, and the application's wiring on top. A new
 * package takes its floor here. Checked on the compiled classes.
 */
class ApiServerFloorsTest {

  private static final String API = "com.crmflow.api";

  private static String[] packages(String... names) {
    return java.util.Arrays.stream(names)
        .map(name -> API + "." + name + "..")
        .toArray(String[]::new);
  }

  static final ArchRule NO_CYCLES = slices().matching(API + ".(*)..").should().beFreeOfCycles();

  static final ArchRule FLOORS =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .ensureAllClassesAreContainedInArchitecture()
          .layer("Foundation")
          .definedBy(
              packages(
                  "access",
                  "settings",
                  "web",
                  "json",
                  "joblease",
                  "tracing",
                  "handover",
                  "secret",
                  "embedded",
                  "temporal",
                  "recordfield",
                  "retention",
                  "audit",
                  "idempotency",
                  "ratelimit"))
          .layer("Tenancy")
          .definedBy(packages("tenant", "apikey", "auth", "bootstrap"))
          .layer("Records")
          .definedBy(
              packages(
                  "customfield",
                  "emailtemplate",
                  "event",
                  "nodeeffect",
                  "note",
                  "task",
                  "account",
                  "chat",
                  "opportunity",
                  "contact",
                  "conversation",
                  "nodetype",
                  "outboundemail"))
          .layer("Flows")
          .definedBy(packages("flow"))
          .layer("Runs")
          .definedBy(
              packages(
                  "run", "generate", "nodestats", "optimize", "reenroll", "sendwindow", "webhook"))
          .layer("Starts")
          .definedBy(
              packages(
                  "trigger",
                  "enrollment",
                  "schedule",
                  "testrun",
                  "runcontrol",
                  "runmove",
                  "recordwatch",
                  "crmwrite"))
          .layer("Application")
          .definedBy(API, API + ".config..")
          .whereLayer("Application")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("Starts")
          .mayOnlyBeAccessedByLayers("Application")
          .whereLayer("Runs")
          .mayOnlyBeAccessedByLayers("Starts", "Application")
          .whereLayer("Flows")
          .mayOnlyBeAccessedByLayers("Runs", "Starts", "Application")
          .whereLayer("Records")
          .mayOnlyBeAccessedByLayers("Flows", "Runs", "Starts", "Application")
          .whereLayer("Tenancy")
          .mayOnlyBeAccessedByLayers("Records", "Flows", "Runs", "Starts", "Application");

  /** The engine's interpreter is the workflows' own; api-server starts runs through its face. */
  static final ArchRule ENGINE_THROUGH_ITS_FACE =
      noClasses()
          .that()
          .resideInAPackage(API + "..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.crmflow.workflow.run..")
          .because(
              "the interpreter is reached through the engine's contract and its registration"
                  + " (WorkflowImplementations), never through its own package");

  /**
   * A node type is read through its public interface and the catalog of the process's types; the
   * built-in types are the engine's own, as a bean type is the process's.
   */
  static final ArchRule NODE_TYPES_THROUGH_THEIR_INTERFACE =
      noClasses()
          .that()
          .resideInAPackage(API + "..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.crmflow.workflow.node.builtin..")
          .because(
              "api-server knows node types by their descriptors (com.crmflow.workflow.node) in the"
                  + " catalog of its types (NodeTypes, from NodeExecutors.with), never a built-in"
                  + " type's class");

  private static JavaClasses apiServer;

  /** api-server's compiled classes, read once for the four rules. */
  @BeforeAll
  static void importApiServer() {
    apiServer =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(API);
    // the import found the application itself, so the rules are not checked against nothing
    assertThat(apiServer.contain(com.crmflow.api.CrmApiApplication.class)).isTrue();
  }

  @Test
  void apiServersPackagesAreFreeOfCycles() {
    NO_CYCLES.check(apiServer);
  }

  @Test
  void apiServersPackagesStandInTheirFloors() {
    FLOORS.check(apiServer);
  }

  @Test
  void apiServerReachesTheEngineThroughItsFace() {
    ENGINE_THROUGH_ITS_FACE.check(apiServer);
  }

  @Test
  void apiServerNamesNoBuiltInNodeType() {
    NODE_TYPES_THROUGH_THEIR_INTERFACE.check(apiServer);
  }

  @Test
  void theNodeTypeRuleCatchesAClassThatNamesTheBuiltInTypes() {
    EvaluationResult naming =
        NODE_TYPES_THROUGH_THEIR_INTERFACE.evaluate(
            new ClassFileImporter().importClasses(NamesTheBuiltInTypes.class));
    assertThat(naming.hasViolation()).isTrue();
    assertThat(naming.getFailureReport().getDetails())
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains(NamesTheBuiltInTypes.class.getName())
                    .contains(BuiltInNodes.class.getName()));
  }

  /** What the node type rule forbids: an api-server class that names the built-in types. */
  static class NamesTheBuiltInTypes {
    NodeCatalog builtIn = BuiltInNodes.catalog();
  }

  @Test
  void theFloorsCatchAnImportThatRunsBackUp() {
    EvaluationResult upward =
        FLOORS.evaluate(
            new ClassFileImporter()
                .importClasses(
                    ImportsUpForTheFloorsTest.class, com.crmflow.api.run.RunStarter.class));
    assertThat(upward.hasViolation()).isTrue();
    assertThat(upward.getFailureReport().getDetails())
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains(ImportsUpForTheFloorsTest.class.getName())
                    .contains(com.crmflow.api.run.RunStarter.class.getName()));
  }
}
