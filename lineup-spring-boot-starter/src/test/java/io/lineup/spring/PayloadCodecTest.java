package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;

/** Both Jackson codecs read generic types and say what is wrong with a payload they cannot read. */
class PayloadCodecTest {
  record Line(String sku, int quantity) {}

  private static final Type LINES = new ParameterizedTypeReference<List<Line>>() {}.getType();

  private final List<PayloadCodec> codecs =
      List.of(
          new JacksonPayloadCodec(tools.jackson.databind.json.JsonMapper.builder().build()),
          new Jackson2PayloadCodec(new com.fasterxml.jackson.databind.ObjectMapper()));

  @Test
  void aGenericListOfRecordsMakesTheRoundTrip() {
    List<Line> lines = List.of(new Line("book", 2), new Line("lamp", 1));
    for (PayloadCodec codec : codecs) {
      byte[] json = codec.encode(lines);
      assertThat(new String(json, StandardCharsets.UTF_8))
          .isEqualTo("[{\"sku\":\"book\",\"quantity\":2},{\"sku\":\"lamp\",\"quantity\":1}]");
      assertThat(codec.decode(json, LINES)).isEqualTo(lines);
    }
  }

  @Test
  void aPayloadThatIsNotTheTypeIsRefusedNamingTheType() {
    for (PayloadCodec codec : codecs) {
      assertThatThrownBy(
              () -> codec.decode("not json".getBytes(StandardCharsets.UTF_8), Line.class))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Line");
    }
  }

  @Test
  void bytesAndTextAreTakenAsTheyAreWithoutTheCodec() {
    PayloadCodec refusing =
        new PayloadCodec() {
          @Override
          public byte[] encode(Object value) {
            throw new AssertionError("not for bytes or text");
          }

          @Override
          public Object decode(byte[] bytes, Type type) {
            throw new AssertionError("not for bytes or text");
          }
        };
    byte[] raw = {(byte) 0xff, 0};
    assertThat(Payloads.encode(raw, refusing)).isSameAs(raw);
    assertThat(Payloads.encode("héllo", refusing))
        .isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
    assertThat(Payloads.decode(raw, byte[].class, refusing)).isSameAs(raw);
    assertThat(Payloads.decode("héllo".getBytes(StandardCharsets.UTF_8), String.class, refusing))
        .isEqualTo("héllo");
  }
}
