package io.lineup.server.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPOutputStream;

/**
 * One dashboard file as it is sent: its bytes, the same gzip-compressed (made once, when first
 * asked), and an entity tag for each form, so a browser revalidates with {@code If-None-Match} and
 * gets a 304 without a body when it already holds the file.
 *
 * @param plain the file's bytes
 * @param gzipped the bytes gzip-compressed
 * @param tag the first 16 hexadecimal digits of the SHA-256 of the plain bytes
 */
record DashboardFile(byte[] plain, byte[] gzipped, String tag) {
  /** Digits of the SHA-256 kept in the tag: 64 bits tell releases of one file apart. */
  static final int TAG_DIGITS = 16;

  /** Makes the compressed form and the tag of these bytes. */
  static DashboardFile of(byte[] plain) {
    try {
      String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(plain));
      ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 3 + 64);
      try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
        gzip.write(plain);
      }
      return new DashboardFile(plain, out.toByteArray(), digest.substring(0, TAG_DIGITS));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bytes to send: compressed or not. */
  byte[] bytes(boolean gzip) {
    return gzip ? gzipped : plain;
  }

  /** The quoted entity tag of the form sent; the compressed form has its own ({@code -gz}). */
  String etag(boolean gzip) {
    return "\"" + tag + (gzip ? "-gz" : "") + "\"";
  }

  /**
   * Whether an {@code Accept-Encoding} header accepts gzip: it names {@code gzip} (or {@code *})
   * without {@code q=0}.
   */
  static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    for (String coding : acceptEncoding.split(",")) {
      String[] parts = coding.trim().split(";");
      String name = parts[0].trim();
      if (!name.equalsIgnoreCase("gzip") && !name.equals("*")) {
        continue;
      }
      boolean refused = false;
      for (int i = 1; i < parts.length; i++) {
        String parameter = parts[i].trim().replace(" ", "");
        if (parameter.matches("[qQ]=0(\\.0{0,3})?")) {
          refused = true;
        }
      }
      if (!refused) {
        return true;
      }
    }
    return false;
  }

  /** Whether an {@code If-None-Match} header names this tag (or is {@code *}); weak tags count. */
  static boolean matches(String ifNoneMatch, String etag) {
    if (ifNoneMatch == null) {
      return false;
    }
    for (String candidate : ifNoneMatch.split(",")) {
      String tag = candidate.trim();
      if (tag.equals("*") || tag.equals(etag) || tag.equals("W/" + etag)) {
        return true;
      }
    }
    return false;
  }
}
