package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/** The README's Java client snippet compiles as it is shown, imports included. */
class ReadmeSnippetTest {
  @Test
  void theReadmeClientSnippetCompilesWithTheImportsItShows() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    int section = readme.indexOf("### The Java client");
    assertThat(section).as("the README has its Java client section").isPositive();
    int start = readme.indexOf("```java\n", section) + "```java\n".length();
    String snippet = readme.substring(start, readme.indexOf("```", start));

    List<String> imports = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    for (String line : snippet.lines().toList()) {
      if (line.startsWith("import ")) {
        imports.add(line);
      } else {
        body.append(line).append('\n');
      }
    }
    assertThat(imports).as("the snippet shows its imports").isNotEmpty();
    String source =
        "package snippet;\n"
            + String.join("\n", imports)
            + "\nclass Snippet {\n  void run() throws Exception {\n"
            + body
            + "  }\n}\n";

    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    Path out = Files.createTempDirectory("readme-snippet");
    JavaFileObject file =
        new SimpleJavaFileObject(
            URI.create("string:///snippet/Snippet.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    boolean compiled =
        compiler
            .getTask(
                errors,
                null,
                null,
                List.of("-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
                null,
                List.of(file))
            .call();
    assertThat(compiled).as("%s%n%s", source, errors).isTrue();
  }
}
