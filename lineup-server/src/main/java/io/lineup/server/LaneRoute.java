package io.lineup.server;

import io.lineup.server.api.LaneAction;
import io.lineup.server.auth.Access;

/**
 * A route the {@link CoreLane} serves (a route of the table that has a {@link LaneAction}): {@code
 * POST} on a path template of the form {@code /v1/{collection}/{ns}/{name}/{items}} (two names
 * between a fixed prefix and a fixed suffix), for requests without a query whose names are plain
 * (not empty, nothing to decode).
 */
final class LaneRoute {
  private static final String NS = "{ns}/{";

  private final String template;
  private final Access access;
  private final LaneAction action;
  private final String prefix;
  private final String suffix;

  /**
   * @param template the route's path template, as in the route table (the metrics label), with
   *     {@code {ns}/{name}} between a prefix and a suffix that hold no other parameter
   * @param access who may call it (the route table's rule for the same route)
   * @param action what the route does
   * @throws IllegalArgumentException when the template is not of that form
   */
  LaneRoute(String template, Access access, LaneAction action) {
    int ns = template.indexOf(NS);
    int close = ns < 0 ? -1 : template.indexOf('}', ns + NS.length());
    if (ns < 0 || close < 0 || template.indexOf('{', close) >= 0 || template.indexOf('{') < ns) {
      throw new IllegalArgumentException("not a lane template: " + template);
    }
    this.template = template;
    this.access = access;
    this.action = action;
    this.prefix = template.substring(0, ns);
    this.suffix = template.substring(close + 1);
  }

  String template() {
    return template;
  }

  Access access() {
    return access;
  }

  LaneAction action() {
    return action;
  }

  /** The template's text before {@code {ns}}, for example {@code /v1/queues/}. */
  String prefix() {
    return prefix;
  }

  /** The template's text after the second name, for example {@code /jobs}. */
  String suffix() {
    return suffix;
  }

  /** The path's first name, as it came, given {@link #slashBetweenNames}'s answer for it. */
  String namespace(String path, int slash) {
    return path.substring(prefix.length(), slash);
  }

  /** The path's second name (a queue, an endpoint), as it came. */
  String name(String path, int slash) {
    return path.substring(slash + 1, path.length() - suffix.length());
  }

  /**
   * Where the slash between the two names is when {@code path} is this route's with both names
   * plain (not empty, no {@code %} or {@code ;}, no further slash), else -1.
   */
  int slashBetweenNames(String path) {
    if (path == null
        || !path.startsWith(prefix)
        || !path.endsWith(suffix)
        || path.indexOf('%') >= 0
        || path.indexOf(';') >= 0) {
      return -1;
    }
    int end = path.length() - suffix.length();
    int slash = path.indexOf('/', prefix.length());
    boolean twoNames =
        slash > prefix.length() && slash + 1 < end && path.indexOf('/', slash + 1) == end;
    return twoNames ? slash : -1;
  }
}
