package io.lineup.spring;

import java.lang.reflect.Type;

/**
 * Turns the payloads of {@link LineupPublisher} and the parameters and results of {@link
 * LineupHandler} methods into bytes and back. The starter's default uses the context's Jackson
 * mapper (Jackson 3's {@code JsonMapper} on Spring Boot 4); declare a bean of this type to use
 * another format. {@code byte[]} and {@code String} never reach the codec: they are taken as they
 * are.
 */
public interface PayloadCodec {
  /**
   * Writes a value.
   *
   * @param value not null, neither bytes nor text
   * @return the bytes to publish
   * @throws IllegalArgumentException when the value cannot be written
   */
  byte[] encode(Object value);

  /**
   * Reads a value of the given type.
   *
   * @param bytes a job's payload
   * @param type the handler parameter's type (generic types included)
   * @return the value
   * @throws IllegalArgumentException when the bytes are not a value of that type
   */
  Object decode(byte[] bytes, Type type);
}
