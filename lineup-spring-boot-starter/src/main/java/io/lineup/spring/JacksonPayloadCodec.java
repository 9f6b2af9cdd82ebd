package io.lineup.spring;

import java.lang.reflect.Type;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/** Payloads as JSON with a Jackson 3 mapper: the context's own on Spring Boot 4. */
public final class JacksonPayloadCodec implements PayloadCodec {
  private final ObjectMapper mapper;

  /**
   * A codec that reads and writes with this mapper (its modules and settings apply).
   *
   * @param mapper a Jackson 3 mapper, e.g. Spring Boot's {@code JsonMapper} bean
   */
  public JacksonPayloadCodec(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  @Override
  public byte[] encode(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "cannot write " + value.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
    }
  }

  @Override
  public Object decode(byte[] bytes, Type type) {
    try {
      return mapper.readValue(bytes, mapper.constructType(type));
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "payload is not JSON of " + type.getTypeName() + ": " + e.getOriginalMessage(), e);
    }
  }
}
