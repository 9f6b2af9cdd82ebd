package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one rule set for what Lineup sends: paths, header names and values. */
class OutgoingRequestCheckTest {

  @Test
  void pathTricksThatAServerCouldReadAsLeavingItsPlaceAreFoundInAnyCaseOrEncoding() {
    for (String path :
        List.of(
            "/..",
            "/a/../b",
            "/.",
            "/..;/x",
            "/..;jsessionid=1",
            "/.;/x",
            "/a/.;x/b",
            "/%2e%2e/x",
            "/%2E./x",
            "/%252e%252e/x",
            "/%25252E/x",
            "/a%2Fb",
            "/a%255cb",
            "/a\\b",
            "/a//b",
            "//host/x")) {
      assertThat(TargetPaths.hasDotSegmentOrEncodedTrick(path)).as(path).isTrue();
    }
    for (String path :
        List.of("", "/", "/a/b", "/a;v=1/b", "/a..b/c.d", "/...", "/a%20b", "/a%25")) {
      assertThat(TargetPaths.hasDotSegmentOrEncodedTrick(path)).as(path).isFalse();
    }
  }

  @Test
  void headerNamesMustBeTokensAndNotFramingHopByHopOrLineupsOwn() {
    for (String name :
        List.of(
            "Host",
            "content-length",
            "Transfer-Encoding",
            "Connection",
            "Upgrade",
            "TE",
            "Trailer",
            "Expect",
            "Keep-Alive",
            "Proxy-Authorization",
            "proxy-anything",
            "X-A B",
            "X-A\r\nB",
            "X-A\u0000",
            "X:",
            "")) {
      assertThat(HeaderRules.taskHeaderProblem(name, "v")).as(name).isNotNull();
    }
    assertThat(HeaderRules.taskHeaderProblem("Idempotency-Key", "v")).isNotNull();
    assertThat(HeaderRules.taskHeaderProblem("Lineup-Task-Id", "v")).isNotNull();
    assertThat(HeaderRules.taskHeaderProblem("X-Trace", "a\tb é")).isNull();
  }

  @Test
  void headerValuesMustHoldNoControlCharacters() {
    for (String value :
        List.of("a\r\nX-Injected: yes", "a\nb", "a\rb", "a\u0000", "a\u007f", "€")) {
      assertThat(HeaderRules.valueProblem(value)).as(value).isNotNull();
    }
  }

  @Test
  void aCallbackWithAnInjectedHeaderValueIsRefused() {
    CallbackSettings settings =
        new CallbackSettings(List.of("http://127.0.0.1:1/hooks/"), List.of("whsec_AAAA"));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("webhook-id", "task_x\r\nX-Injected: yes");
    assertThatThrownBy(
            () -> OutgoingRequestCheck.callback(settings, "http://127.0.0.1:1/hooks/a", headers))
        .isInstanceOf(OutgoingRequestCheck.Refused.class)
        .hasMessageContaining("webhook-id");
    assertThatThrownBy(() ->
            OutgoingRequestCheck.callback(settings, "http://127.0.0.1:1/hooks/..;/admin", Map.of()))
        .isInstanceOf(OutgoingRequestCheck.Refused.class);
    assertThat(OutgoingRequestCheck.callback(settings, "http://127.0.0.1:1/hooks/a?b=1", Map.of()))
        .hasToString("http://127.0.0.1:1/hooks/a?b=1");
  }
}
