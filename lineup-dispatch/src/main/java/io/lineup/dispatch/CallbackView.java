package io.lineup.dispatch;

import java.util.List;

/**
 * A namespace's callback settings as they may be shown: never the secrets, only how many.
 *
 * @param namespace the namespace
 * @param allowedPrefixes the URL prefixes a task's callback URL must start with
 * @param secrets how many signing secrets it has (2 during a rotation)
 * @param freshSecret the secret just made, shown this once; null otherwise
 */
public record CallbackView(
    String namespace, List<String> allowedPrefixes, int secrets, String freshSecret) {}
