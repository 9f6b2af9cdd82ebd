package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PublishFieldsTest {
  @Test
  void aPublishBodyHasElevenFieldsOneOfThemTheUniqueWindow() {
    assertThat(PublishFields.ALL).hasSize(13).contains(PublishFields.UNIQUE_WINDOW_MS);
    assertThat(PublishFields.UNIQUE_WINDOW_MS).isEqualTo("unique_window_ms");
  }
}
