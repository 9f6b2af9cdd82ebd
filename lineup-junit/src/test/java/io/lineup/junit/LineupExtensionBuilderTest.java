package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The builder refuses settings a server would refuse, at once and saying which. */
class LineupExtensionBuilderTest {

  @Test
  void aMalformedNamespaceIsRefusedWithTheRule() {
    assertThatThrownBy(() -> LineupExtension.builder().namespace("a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The namespace may only contain A-Z a-z 0-9 _ . - but was 'a b'");
  }

  @Test
  void anUnknownScopeIsRefusedWithTheKnownOnes() {
    assertThatThrownBy(() -> LineupExtension.builder().scopes("publish", "admin"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Unknown scope 'admin': the scopes are [publish, consume, manage, read]");
  }

  @Test
  void aTokenWithoutScopesIsRefused() {
    assertThatThrownBy(() -> LineupExtension.builder().scopes())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one scope");
  }

  @Test
  void aPriorityBeyond255IsRefused() {
    assertThat(LineupExtension.builder().maxPriority(-255).maxPriority(255)).isNotNull();
    assertThatThrownBy(() -> LineupExtension.builder().maxPriority(256))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("The highest priority must be -255 to 255, got 256");
  }

  @Test
  void aNamespaceTooLongToMakeFreshOnesFromIsRefused() {
    String longest = "n".repeat(LineupExtension.MAX_FRESH_BASE_LENGTH);
    assertThat(LineupExtension.builder().namespace(longest).freshNamespacePerTest(true).settings())
        .extracting(ExtensionSettings::namespace)
        .isEqualTo(longest);
    assertThat(RunningLineup.freshName(longest)).hasSize(64);

    assertThatThrownBy(() ->
            LineupExtension.builder().namespace(longest + "n").freshNamespacePerTest(true).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 55 characters, got 56");
  }

  @Test
  void serverSettingsChangesApplyInTheOrderGiven() {
    ExtensionSettings settings =
        LineupExtension.builder()
            .egressAllow("127.0.0.1")
            .serverSettings(s -> s.maxPayloadBytes(100))
            .serverSettings(s -> s.maxPayloadBytes(200))
            .settings();

    io.lineup.server.ServerSettings built =
        settings.serverSettings().apply(io.lineup.server.ServerSettings.builder()).build();
    assertThat(built.egressAllow()).isEqualTo("127.0.0.1");
    assertThat(built.maxPayloadBytes()).isEqualTo(200);
  }

  @Test
  void theAnnotationsAttributesBecomeTheSameSettings() {
    ExtensionSettings settings =
        ExtensionSettings.of(Annotated.class.getAnnotation(LineupTest.class));

    assertThat(settings.namespace()).isEqualTo("billing");
    assertThat(settings.scopes()).containsExactly("consume");
    assertThat(settings.maxPriority()).isEqualTo(-3);
    assertThat(settings.lifecycle()).isEqualTo(ServerLifecycle.PER_METHOD);
    assertThat(settings.freshNamespacePerTest()).isTrue();
    assertThat(settings.redisUrl()).isEqualTo("redis://127.0.0.1:6399");
    assertThat(settings.serverSettings().apply(io.lineup.server.ServerSettings.builder()).build())
        .extracting(io.lineup.server.ServerSettings::egressAllow)
        .isEqualTo("127.0.0.1");
  }

  @Test
  void anAnnotationWithoutAttributesGivesTheDefaults() {
    ExtensionSettings settings = ExtensionSettings.of(Plain.class.getAnnotation(LineupTest.class));

    assertThat(settings.namespace()).isEqualTo(LineupExtension.DEFAULT_NAMESPACE);
    assertThat(settings.scopes()).isEqualTo(LineupExtension.ALL_SCOPES);
    assertThat(settings.maxPriority()).isEqualTo(LineupExtension.DEFAULT_MAX_PRIORITY);
    assertThat(settings.lifecycle()).isEqualTo(ServerLifecycle.PER_CLASS);
    assertThat(settings.freshNamespacePerTest()).isFalse();
    assertThat(settings.redisUrl()).as("a Redis of the test's own").isNull();
    assertThat(settings.serverSettings().apply(io.lineup.server.ServerSettings.builder()).build())
        .extracting(io.lineup.server.ServerSettings::egressAllow)
        .as("public addresses only")
        .isNull();
  }

  // Read for their annotations only; never run.

  @LineupTest(
      namespace = "billing",
      scopes = "consume",
      maxPriority = -3,
      lifecycle = ServerLifecycle.PER_METHOD,
      freshNamespacePerTest = true,
      egressAllow = "127.0.0.1",
      redisUrl = "redis://127.0.0.1:6399")
  static class Annotated {}

  @LineupTest
  static class Plain {}
}
