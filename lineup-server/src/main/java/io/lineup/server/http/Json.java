package io.lineup.server.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The one JSON configuration of the server: strict reading (duplicate keys, trailing tokens and
 * deep nesting refused) and compact writing.
 */
public final class Json {
  /** Deepest nesting of arrays and objects accepted in a request body (payloads included). */
  public static final int MAX_NESTING_DEPTH = 256;

  /** Longest number accepted, in characters. */
  public static final int MAX_NUMBER_LENGTH = 1000;

  /**
   * Most sets of parser and generator buffers kept for reuse. A set is held only while one document
   * is read or written in memory, which never blocks, so about as many are in use at once as there
   * are carrier threads; sets beyond this are made and dropped.
   */
  static final int RECYCLED_BUFFER_SETS = 256;

  /**
   * Buffers are reused from a pool shared by all threads. Jackson's default keeps them per thread,
   * and every request runs on a new virtual thread, so each parse and each write made a fresh set
   * (several KiB, with a soft reference for the collector to process): about a fifth of the
   * server's CPU samples per HTTP publish.
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .recyclerPool(JsonRecyclerPools.newBoundedPool(RECYCLED_BUFFER_SETS))
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_NESTING_DEPTH)
                  .maxNumberLength(MAX_NUMBER_LENGTH)
                  .build())
          .build();

  /** The shared mapper (thread-safe). */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder(FACTORY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  private Json() {}

  /** A new empty object node. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /**
   * Parses a whole document.
   *
   * @throws IOException when the bytes are not one JSON value
   */
  public static JsonNode parse(byte[] bytes) throws IOException {
    return MAPPER.readTree(bytes);
  }

  /** The compact JSON text of a value. */
  public static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The compact JSON text of a value with only the fields of a JSON view (a resource record's shape
   * for one case, e.g. a ticket's status).
   */
  public static byte[] write(Object value, Class<?> view) {
    try {
      return MAPPER.writerWithView(view).writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes one JSON value through a generator. */
  @FunctionalInterface
  public interface Writing {
    /**
     * @throws IOException only as the generator throws it
     */
    void writeTo(JsonGenerator generator) throws IOException;
  }

  /**
   * The compact JSON text a generator writes: for answers written field by field, where building a
   * tree first and writing it through the mapper cost several times as much (the mapper sets up its
   * serializers for every value it writes).
   */
  public static byte[] writeWith(Writing writing) {
    ByteArrayBuilder out = new ByteArrayBuilder();
    try (JsonGenerator generator = FACTORY.createGenerator(out)) {
      writing.writeTo(generator);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Whether the bytes are exactly one JSON value, checked by streaming (no tree is built), so
   * stored payloads can be sent back as JSON without parsing them twice.
   */
  public static boolean isJson(byte[] bytes) {
    if (bytes == null || bytes.length == 0) {
      return false;
    }
    try (JsonParser parser = FACTORY.createParser(bytes)) {
      if (parser.nextToken() == null) {
        return false;
      }
      parser.skipChildren();
      return parser.nextToken() == null;
    } catch (IOException e) {
      return false;
    }
  }
}
