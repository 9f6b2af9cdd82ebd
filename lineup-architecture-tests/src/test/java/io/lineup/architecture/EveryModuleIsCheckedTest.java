package io.lineup.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rules cover every module of the build: each package with main sources in a module the parent
 * POM lists is among the classes the rules read. A module added to the build without being added to
 * this module's dependencies fails here rather than going unchecked.
 */
class EveryModuleIsCheckedTest {
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

  @Test
  void everyPackageWithMainSourcesIsChecked() throws IOException {
    Path root = Path.of("").toAbsolutePath().getParent();
    Set<String> sourcePackages = new TreeSet<>();
    for (String module : modules(root.resolve("pom.xml"))) {
      sourcePackages.addAll(packagesWithSources(root.resolve(module).resolve("src/main/java")));
    }
    Set<String> checkedPackages =
        LineupClasses.all().stream()
            .map(javaClass -> javaClass.getPackageName())
            .collect(Collectors.toCollection(TreeSet::new));

    assertThat(sourcePackages).isNotEmpty();
    assertThat(checkedPackages).containsAll(sourcePackages);
  }

  private static List<String> modules(Path pom) throws IOException {
    List<String> modules = new ArrayList<>();
    Matcher matcher = MODULE.matcher(Files.readString(pom));
    while (matcher.find()) {
      modules.add(matcher.group(1).trim());
    }
    return modules;
  }

  private static Set<String> packagesWithSources(Path sources) throws IOException {
    if (!Files.isDirectory(sources)) {
      return Set.of();
    }
    try (Stream<Path> files = Files.walk(sources)) {
      return files
          .filter(file -> file.toString().endsWith(".java"))
          .filter(file -> !file.getFileName().toString().equals("module-info.java"))
          .map(file -> sources.relativize(file.getParent()).toString().replace('/', '.'))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
