package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A response body kept up to its limit, from arrays (Lineup's client) or buffers (the JDK's). */
class CappedBytesTest {
  @Test
  void aBodyUnderTheLimitIsKeptWholeAcrossManyPieces() {
    CappedBytes bytes = new CappedBytes(10);

    assertThat(bytes.add(ascii("abc"), 0, 3)).isFalse();
    assertThat(bytes.add(ByteBuffer.wrap(ascii("defg")))).isFalse();
    assertThat(bytes.add(ascii("xhijx"), 1, 3)).isFalse();

    assertThat(new String(bytes.bytes(), StandardCharsets.US_ASCII)).isEqualTo("abcdefghij");
  }

  @Test
  void aLongerBodyIsCutOneByteAfterTheLimitAndSaysSo() {
    CappedBytes fromArrays = new CappedBytes(4);
    CappedBytes fromBuffers = new CappedBytes(4);
    ByteBuffer buffer = ByteBuffer.wrap(ascii("abcdefgh"));

    assertThat(fromArrays.add(ascii("abcdefgh"), 0, 8)).isTrue();
    assertThat(fromBuffers.add(buffer)).isTrue();

    assertThat(fromArrays.bytes()).isEqualTo(ascii("abcde"));
    assertThat(fromBuffers.bytes()).isEqualTo(ascii("abcde"));
    assertThat(buffer.remaining()).as("the rest of the buffer is not taken").isEqualTo(3);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
