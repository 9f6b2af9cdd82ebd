package io.lineup.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The compiled main classes of every Lineup module, read once for all the rules of this module.
 * Every module is a test dependency of this one, so its classes are on the class path; test classes
 * and test-jars are left out, because the rules are about the product's code.
 */
final class LineupClasses {
  private static JavaClasses classes;

  private LineupClasses() {}

  /** Every class of every {@code io.lineup} package, tests excluded. */
  static synchronized JavaClasses all() {
    if (classes == null) {
      classes =
          new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .withImportOption(location -> !location.contains("-tests.jar"))
              .importPackages("io.lineup");
    }
    return classes;
  }
}
