package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.lineup.client.LineupClient;
import io.lineup.client.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lineup namespaces create|list|delete} (admin token). */
@Command(
    name = "namespaces",
    mixinStandardHelpOptions = true,
    description = "Namespaces (needs the admin token).",
    subcommands = {
      NamespacesCommand.Create.class,
      NamespacesCommand.ListNamespaces.class,
      NamespacesCommand.Delete.class
    })
final class NamespacesCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: create, list or delete");
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Register a namespace.")
  static final class Create implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "NAMESPACE")
    String name;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        Namespace ns = client.admin().createNamespace(name);
        if (output.json) {
          output.json(Output.namespace(ns));
        } else {
          output.out().println("registered " + ns.name());
        }
        return ExitCodes.OK;
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Registered namespaces.")
  static final class ListNamespaces implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        List<Namespace> all = client.admin().namespaces();
        if (output.json) {
          ArrayNode list = Output.MAPPER.createArrayNode();
          all.forEach(n -> list.add(Output.namespace(n)));
          output.json(list);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        all.forEach(n -> rows.add(List.of(n.name(), Output.time(n.createdAt()))));
        output.table(List.of("NAMESPACE", "CREATED"), rows);
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "delete",
      mixinStandardHelpOptions = true,
      description = "Remove a namespace and revoke its tokens; its queues and jobs stay.")
  static final class Delete implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "NAMESPACE")
    String name;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        client.admin().deleteNamespace(name);
        if (output.json) {
          output.json(Output.MAPPER.createObjectNode().put("deleted", name));
        } else {
          output.out().println("deleted " + name);
        }
        return ExitCodes.OK;
      }
    }
  }
}
