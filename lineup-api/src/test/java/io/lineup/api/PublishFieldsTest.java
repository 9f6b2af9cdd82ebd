package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PublishFieldsTest {
  @Test
  void aPublishBodyHasFourteenFieldsAmongThemTheUniqueWindowAndTheFairnessKey() {
    assertThat(PublishFields.ALL)
        .hasSize(14)
        .contains(PublishFields.UNIQUE_WINDOW_MS, PublishFields.KEY);
    assertThat(PublishFields.UNIQUE_WINDOW_MS).isEqualTo("unique_window_ms");
    assertThat(PublishFields.KEY).isEqualTo("key");
  }
}
