package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.dispatch.CallbackSettings;
import io.lineup.dispatch.CallbackView;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.util.ArrayList;
import java.util.List;

/** The JSON of a namespace's callback settings: the prefixes of a {@code PUT}, and the view. */
final class CallbackJson {
  private CallbackJson() {}

  /**
   * Reads and checks the allowed prefixes of a {@code PUT}.
   *
   * @throws ApiException 400 naming {@code allowed_prefixes} when it is not an array of at most
   *     {@link CallbackSettings#MAX_PREFIXES} strings
   * @throws io.lineup.dispatch.DispatchInputException 400 naming {@code allowed_prefixes[i]} when a
   *     prefix is not an http(s) URL with a path
   */
  static List<String> prefixes(JsonNode node) {
    if (node == null || !node.isArray() || node.size() > CallbackSettings.MAX_PREFIXES) {
      throw ApiException.invalidField(
          "allowed_prefixes",
          "must be an array of at most " + CallbackSettings.MAX_PREFIXES + " URL prefixes");
    }
    List<String> prefixes = new ArrayList<>();
    for (int i = 0; i < node.size(); i++) {
      String field = "allowed_prefixes[" + i + "]";
      JsonNode item = node.get(i);
      if (!item.isTextual()) {
        throw ApiException.invalidField(field, "must be a string");
      }
      CallbackSettings.checkPrefix(field, item.textValue());
      prefixes.add(item.textValue());
    }
    return List.copyOf(prefixes);
  }

  /** The settings as the API shows them; {@code secret} only when just made. */
  static ObjectNode view(CallbackView settings) {
    ObjectNode view = Json.object();
    view.put("namespace", settings.namespace());
    ArrayNode p = view.putArray("allowed_prefixes");
    settings.allowedPrefixes().forEach(p::add);
    view.put("secrets", settings.secrets());
    if (settings.freshSecret() != null) {
      view.put("secret", settings.freshSecret());
    }
    return view;
  }
}
