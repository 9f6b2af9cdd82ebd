package io.lineup.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

/**
 * No package of any module depends on itself through other packages: each package is its own slice,
 * so a cycle between a package and its own subpackages (an API and its internals, a server and its
 * handlers) fails as well as one between modules. There is no allow-list: the engine's runtime,
 * internals and values are layered (see {@link EngineBoundariesTest}).
 */
class PackageCyclesTest {
  @Test
  void noPackageOfAnyModuleIsPartOfACycle() {
    slices().matching("io.lineup.(**)").should().beFreeOfCycles().check(LineupClasses.all());
  }
}
