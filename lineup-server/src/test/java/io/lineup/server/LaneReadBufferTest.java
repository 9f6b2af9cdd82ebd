package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.junit.jupiter.api.Test;

/**
 * A lane connection's read buffer: taken from the pool only while bytes are unread, moved only when
 * a request would not fit behind what was read, and handed over as a copy.
 */
class LaneReadBufferTest {
  static final int HEAD_BYTES = 16;

  final AtomicInteger held = new AtomicInteger();
  final LaneReadBuffer buffer = new LaneReadBuffer(new ArrayByteBufferPool(), HEAD_BYTES, held);

  /** What a fill from the connection does: appends bytes after the unread ones. */
  static void arrive(ByteBuffer in, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, in.array(), in.limit(), bytes.length);
    in.limit(in.limit() + bytes.length);
  }

  static String unread(ByteBuffer in) {
    return new String(in.array(), in.position(), in.remaining(), StandardCharsets.US_ASCII);
  }

  @Test
  void aBufferOfAHeadsSizeIsHeldOnlyFromTheFirstBytesUntilItIsGivenBack() {
    assertThat(buffer.hasUnread()).isFalse();
    assertThat(held).hasValue(0);

    ByteBuffer in = buffer.bytes();
    assertThat(in.capacity()).isEqualTo(HEAD_BYTES);
    assertThat(in.remaining()).isZero();
    assertThat(held).hasValue(1);
    arrive(in, "POST");
    assertThat(buffer.hasUnread()).isTrue();

    buffer.release();
    assertThat(held).hasValue(0);
    assertThat(buffer.hasUnread()).isFalse();
    assertThat(buffer.bytes().remaining()).as("a fresh buffer").isZero();
    assertThat(held).hasValue(1);
  }

  @Test
  void aRequestThatFitsBehindWhatWasReadMovesNothing() {
    ByteBuffer in = buffer.bytes();
    arrive(in, "abcdef");
    in.position(2);

    assertThat(buffer.makeRoom(8)).isFalse();
    assertThat(buffer.bytes()).isSameAs(in);
    assertThat(unread(in)).isEqualTo("cdef");
  }

  @Test
  void aRequestThatDoesNotFitBehindIsMovedToTheFrontAndMustBeParsedAgain() {
    ByteBuffer in = buffer.bytes();
    arrive(in, "abcdefghij");
    in.position(8);

    assertThat(buffer.makeRoom(12)).isTrue();
    assertThat(buffer.bytes().position()).isZero();
    assertThat(unread(buffer.bytes())).isEqualTo("ij");
    assertThat(held).hasValue(1);
  }

  @Test
  void aBodyLargerThanAHeadGoesToABufferOfItsOwnSizeAndThePoolsIsGivenBack() {
    ByteBuffer in = buffer.bytes();
    arrive(in, "head+body");
    in.position(5);

    assertThat(buffer.makeRoom(40)).isTrue();
    ByteBuffer larger = buffer.bytes();
    assertThat(larger.capacity()).as("exactly the request: nothing past it is read").isEqualTo(40);
    assertThat(unread(larger)).isEqualTo("body");
    assertThat(held).hasValue(0);

    larger.position(larger.limit());
    buffer.release();
    assertThat(buffer.bytes().capacity()).as("back to a head's size").isEqualTo(HEAD_BYTES);
  }

  @Test
  void theUnreadBytesAreHandedOverAsACopyAndTheBufferGivenBack() {
    ByteBuffer in = buffer.bytes();
    arrive(in, "GET / HTTP");
    in.position(4);

    ByteBuffer unread = buffer.takeUnread();

    assertThat(unread).isNotSameAs(in);
    assertThat(StandardCharsets.US_ASCII.decode(unread).toString()).isEqualTo("/ HTTP");
    assertThat(held).hasValue(0);
    assertThat(buffer.takeUnread()).as("nothing left").isNull();
  }

  @Test
  void aClosedConnectionsBufferIsNoLongerCountedOnce() {
    buffer.bytes();

    buffer.forget();
    buffer.forget();
    buffer.release();

    assertThat(held).hasValue(0);
  }
}
