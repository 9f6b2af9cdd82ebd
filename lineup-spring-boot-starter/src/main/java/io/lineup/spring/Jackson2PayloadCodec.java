package io.lineup.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Type;

/**
 * Payloads as JSON with a Jackson 2 mapper: used when the application has no Jackson 3 (the
 * client's Jackson 2 is always there).
 */
public final class Jackson2PayloadCodec implements PayloadCodec {
  private final ObjectMapper mapper;

  /**
   * A codec that reads and writes with this mapper.
   *
   * @param mapper a Jackson 2 mapper
   */
  public Jackson2PayloadCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public byte[] encode(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot write " + value.getClass().getName() + " as JSON: " + e.getMessage(), e);
    }
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    try {
      return mapper.readValue(bytes, mapper.constructType(type));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "payload is not JSON of " + type.getTypeName() + ": " + e.getMessage(), e);
    }
  }
}
