package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A namespace's callback settings: the URL prefixes a task's callback URL must start with, and the
 * signing secrets (the first signs; both are sent during a rotation).
 *
 * @param allowedPrefixes the allowed prefixes (none: callbacks are refused)
 * @param secrets the signing secrets, newest first ({@code whsec_} and base64 of the key bytes)
 */
public record CallbackSettings(List<String> allowedPrefixes, List<String> secrets) {

  /** Most allowed prefixes per namespace. */
  public static final int MAX_PREFIXES = 32;

  /** Secrets kept at once: the new one and the one before (for rotation). */
  public static final int MAX_SECRETS = 2;

  /** No prefixes, no secrets. */
  public static CallbackSettings none() {
    return new CallbackSettings(List.of(), List.of());
  }

  /**
   * Checks a task's callback URL.
   *
   * @throws DispatchInputException naming {@code callback_url} when it is not an http(s) URL or
   *     matches none of the allowed prefixes
   */
  public void check(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw DispatchInputException.invalidField(
          "callback_url", "is not a valid URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawFragment() != null
        || TargetPaths.hasDotSegmentOrEncodedTrick(
            uri.getRawPath() == null ? "" : uri.getRawPath())) {
      throw DispatchInputException.invalidField(
          "callback_url",
          "must be an http or https URL with a host, without user info, fragment, dot segments"
              + " (also as ..; or .;x), empty segments (//), backslashes or encoded dots,"
              + " slashes or backslashes");
    }
    for (String prefix : allowedPrefixes) {
      if (url.startsWith(prefix)) {
        return;
      }
    }
    throw DispatchInputException.invalidField(
        "callback_url",
        allowedPrefixes.isEmpty()
            ? "this namespace allows no callback URLs; its manager sets allowed_prefixes with PUT"
                + " /v1/callbacks/{ns}"
            : "must start with one of the namespace's allowed callback prefixes");
  }

  /**
   * Checks one allowed prefix: an http or https URL with a host and a path starting with {@code /}.
   *
   * @param field the prefix's path in the request (e.g. {@code allowed_prefixes[2]}), for the error
   * @throws DispatchInputException naming the field when it is not such a URL
   */
  public static void checkPrefix(String field, String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw DispatchInputException.invalidField(field, "is not a valid URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    // A prefix must end its host part, or "https://hooks.example.com" would allow
    // "https://hooks.example.com.evil.net/".
    if (!(scheme.equals("http") || scheme.equals("https"))
        || uri.getHost() == null
        || uri.getRawPath() == null
        || !uri.getRawPath().startsWith("/")
        || text.length() > TaskSubmission.MAX_CALLBACK_URL) {
      throw DispatchInputException.invalidField(
          field, "must be an http or https URL with a host and a path starting with /");
    }
  }

  String stored() {
    ObjectNode node = DispatchJson.object();
    ArrayNode p = node.putArray("allowed_prefixes");
    allowedPrefixes.forEach(p::add);
    ArrayNode s = node.putArray("secrets");
    secrets.forEach(s::add);
    return new String(DispatchJson.write(node), java.nio.charset.StandardCharsets.UTF_8);
  }

  static CallbackSettings fromStored(String text) {
    try {
      JsonNode node = DispatchJson.MAPPER.readTree(text);
      List<String> prefixes = new ArrayList<>();
      node.path("allowed_prefixes").forEach(n -> prefixes.add(n.asText()));
      List<String> secrets = new ArrayList<>();
      node.path("secrets").forEach(n -> secrets.add(n.asText()));
      return new CallbackSettings(List.copyOf(prefixes), List.copyOf(secrets));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("Stored callback settings are not JSON", e);
    }
  }
}
