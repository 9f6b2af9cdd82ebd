package io.lineup.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

/**
 * No package of any module depends on itself through other packages: each package is its own slice,
 * so a cycle between a package and its own subpackages (an API and its internals, a server and its
 * handlers) fails as well as one between modules. The engine's API and internals still form one
 * cycle, held to the edges {@link KnownCoreCycle} lists.
 */
class PackageCyclesTest {
  @Test
  void noPackageOfAnyModuleIsPartOfACycle() {
    slices()
        .matching("io.lineup.(**)")
        .should()
        .beFreeOfCycles()
        .ignoreDependency(
            KnownCoreCycle.theStorageLayer(), KnownCoreCycle.theApiTypesTheStoreStillUses())
        .check(LineupClasses.all());
  }
}
