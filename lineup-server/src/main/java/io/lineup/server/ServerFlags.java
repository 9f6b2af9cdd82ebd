package io.lineup.server;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Reads the server's settings as text from environment variables and flags, by the table of {@link
 * ServerSetting}: a flag wins over its variable, and a variable left blank counts as unset. The
 * flags are parsed by picocli from a command built from the table, one option of one value per
 * setting ({@code --port=7700} or {@code --port 7700}; the last of a repeated flag wins), and its
 * errors are told in the server's own words.
 */
final class ServerFlags {
  private ServerFlags() {}

  /**
   * The text given for each setting, trimmed; settings given neither way are absent.
   *
   * @throws InvalidSettingException for an unknown flag or a flag without a value
   */
  static Map<ServerSetting, String> read(Map<String, String> environment, List<String> args) {
    Map<ServerSetting, String> values = new EnumMap<>(ServerSetting.class);
    for (ServerSetting setting : ServerSetting.values()) {
      String value = environment.get(setting.variable());
      if (value != null && !value.isBlank()) {
        values.put(setting, value.trim());
      }
    }
    ParseResult flags = parse(args);
    for (ServerSetting setting : ServerSetting.values()) {
      if (flags.hasMatchedOption(setting.flag())) {
        String value = flags.matchedOptionValue(setting.flag(), "");
        values.put(setting, value.trim());
      }
    }
    return values;
  }

  private static ParseResult parse(List<String> args) {
    CommandLine command = new CommandLine(command());
    command.setExpandAtFiles(false); // "@name" is a value, not a file of arguments
    command.setOverwrittenOptionsAllowed(true);
    command.setUnmatchedOptionsAllowedAsOptionParameters(true); // --admin-token -x...
    try {
      return command.parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.UnmatchedArgumentException e) {
      String name = e.getUnmatched().get(0);
      int equals = name.indexOf('=');
      throw unknown(equals > 0 ? name.substring(0, equals) : name);
    } catch (CommandLine.MissingParameterException e) {
      String name =
          e.getMissing().isEmpty() ? "a flag" : ((OptionSpec) e.getMissing().get(0)).longestName();
      throw new InvalidSettingException(name + " needs a value, e.g. " + name + "=...");
    } catch (CommandLine.ParameterException e) {
      throw new InvalidSettingException(e.getMessage());
    }
  }

  private static CommandSpec command() {
    CommandSpec spec = CommandSpec.create().name("lineup-server");
    for (ServerSetting setting : ServerSetting.values()) {
      spec.addOption(
          OptionSpec.builder(setting.flag())
              .arity("1")
              .type(String.class)
              .paramLabel("VALUE")
              .build());
    }
    return spec;
  }

  private static InvalidSettingException unknown(String flag) {
    String known =
        Stream.of(ServerSetting.values())
            .map(ServerSetting::flag)
            .collect(Collectors.joining(", "));
    return new InvalidSettingException("unknown flag " + flag + "; known flags: " + known);
  }
}
