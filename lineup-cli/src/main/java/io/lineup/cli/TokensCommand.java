package io.lineup.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.lineup.client.LineupClient;
import io.lineup.client.TokenInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lineup tokens create|list|revoke} (admin token). */
@Command(
    name = "tokens",
    mixinStandardHelpOptions = true,
    description = "Namespace tokens (needs the admin token).",
    subcommands = {
      TokensCommand.Create.class,
      TokensCommand.ListTokens.class,
      TokensCommand.Revoke.class
    })
final class TokensCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(
        spec.commandLine(), "name a command: create, list or revoke");
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Issue a token for a namespace. The token is printed once; the server keeps only its hash.",
        "Example: lineup tokens create shop --scopes publish,consume --max-priority 10"
      })
  static final class Create implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "NAMESPACE")
    String namespace;

    @Option(
        names = "--scopes",
        split = ",",
        required = true,
        description = "publish, consume, manage, read (comma list).")
    List<String> scopes;

    @Option(names = "--max-priority", description = "Highest priority it may publish (default 0).")
    int maxPriority;

    @Option(names = "--name", description = "A label.")
    String name;

    @Option(names = "--create-namespace", description = "Register the namespace first if needed.")
    boolean createNamespace;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        if (createNamespace
            && client.admin().namespaces().stream().noneMatch(n -> n.name().equals(namespace))) {
          client.admin().createNamespace(namespace);
        }
        TokenInfo token = client.admin().createToken(namespace, scopes, maxPriority, name);
        if (output.json) {
          output.json(Output.token(token));
        } else {
          output.out().println(token.token());
          output
              .err()
              .println(
                  "lineup: token "
                      + token.id()
                      + " for namespace "
                      + token.namespace()
                      + " ("
                      + String.join(",", token.scopes())
                      + "); it is shown only now");
        }
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "Issued tokens, without secrets.")
  static final class ListTokens implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Option(names = "--namespace", description = "Only this namespace's.")
    String namespace;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        List<TokenInfo> tokens = client.admin().tokens(namespace);
        if (output.json) {
          ArrayNode list = Output.MAPPER.createArrayNode();
          tokens.forEach(t -> list.add(Output.token(t)));
          output.json(list);
          return ExitCodes.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        for (TokenInfo t : tokens) {
          rows.add(
              List.of(
                  t.id(),
                  t.namespace(),
                  String.join(",", t.scopes()),
                  Integer.toString(t.maxPriority()),
                  t.name() == null ? "-" : t.name(),
                  Output.time(t.createdAt())));
        }
        output.table(List.of("ID", "NAMESPACE", "SCOPES", "MAX PRIORITY", "NAME", "CREATED"), rows);
        return ExitCodes.OK;
      }
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Revoke a token by its id.")
  static final class Revoke implements Callable<Integer> {
    @Mixin Connection connection;
    @Mixin Output output;

    @Parameters(index = "0", paramLabel = "ID", description = "16 hexadecimal digits")
    String id;

    @Override
    public Integer call() {
      try (LineupClient client = connection.connect()) {
        client.admin().revokeToken(id);
        if (output.json) {
          output.json(Output.MAPPER.createObjectNode().put("revoked", id));
        } else {
          output.out().println("revoked " + id);
        }
        return ExitCodes.OK;
      }
    }
  }
}
