package io.lineup.dispatch;

import io.lineup.core.RecordStore;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The callback settings of each namespace: the URL prefixes its tasks' callbacks may use and the
 * secrets that sign them, stored in Redis.
 */
public final class NamespaceCallbacks {
  private final RecordStore records;
  private final RegistrationCheck registration;

  NamespaceCallbacks(RecordStore records, RegistrationCheck registration) {
    this.records = records;
    this.registration = registration;
  }

  /** The namespace's callback settings (none when never set). */
  public CallbackSettings settings(String namespace) {
    return records.get(namespace).map(CallbackSettings::fromStored).orElse(CallbackSettings.none());
  }

  /**
   * Sets a namespace's allowed callback prefixes. The first call makes a signing secret; {@code
   * rotate} makes a new one and keeps the previous one (both sign) until the next rotation. A new
   * secret is in this answer only.
   *
   * @param prefixes each checked with {@link CallbackSettings#checkPrefix}
   * @throws DispatchInputException naming {@code allowed_prefixes[i]} when a prefix is not an
   *     http(s) URL with a path, or the egress policy never lets a request reach it
   */
  public CallbackView put(String namespace, List<String> prefixes, boolean rotate) {
    for (int i = 0; i < prefixes.size(); i++) {
      CallbackSettings.checkPrefix("allowed_prefixes[" + i + "]", prefixes.get(i));
    }
    for (int i = 0; i < prefixes.size(); i++) {
      registration.check("allowed_prefixes[" + i + "]", URI.create(prefixes.get(i)));
    }
    CallbackSettings current = settings(namespace);
    List<String> secrets = new ArrayList<>(current.secrets());
    String fresh = null;
    if (secrets.isEmpty() || rotate) {
      fresh = WebhookSignature.newSecret();
      secrets.add(0, fresh);
      while (secrets.size() > CallbackSettings.MAX_SECRETS) {
        secrets.remove(secrets.size() - 1);
      }
    }
    records.put(
        namespace, new CallbackSettings(List.copyOf(prefixes), List.copyOf(secrets)).stored());
    return view(namespace, fresh);
  }

  /** The settings as they may be shown: the prefixes and how many secrets. */
  public CallbackView view(String namespace) {
    return view(namespace, null);
  }

  private CallbackView view(String namespace, String freshSecret) {
    CallbackSettings settings = settings(namespace);
    return new CallbackView(
        namespace, settings.allowedPrefixes(), settings.secrets().size(), freshSecret);
  }
}
