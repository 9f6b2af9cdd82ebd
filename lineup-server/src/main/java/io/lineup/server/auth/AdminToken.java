package io.lineup.server.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin token: the configured one, else the one kept in the data folder ({@value #FILE_NAME}),
 * else a new one, stored there (readable by its owner only) and printed once.
 */
public final class AdminToken {
  /** The file in the data folder holding a generated admin token. */
  public static final String FILE_NAME = "admin-token";

  /** Prefix of generated admin tokens. */
  public static final String PREFIX = "lu_admin_";

  private static final Logger LOG = LoggerFactory.getLogger(AdminToken.class);

  private AdminToken() {}

  /**
   * The admin token to use.
   *
   * @param configured the configured token, or null
   * @param dataDir where a generated token is kept
   * @throws UncheckedIOException when the token file cannot be read or written
   */
  public static String resolve(String configured, Path dataDir) {
    if (configured != null) {
      return configured;
    }
    Path file = dataDir.resolve(FILE_NAME).toAbsolutePath().normalize();
    try {
      if (Files.exists(file)) {
        String stored = Files.readString(file, StandardCharsets.UTF_8).trim();
        if (!stored.isEmpty()) {
          LOG.info("Using the admin token kept in {}", file);
          return stored;
        }
      }
      String token = generate();
      Files.createDirectories(dataDir);
      Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
      restrictToOwner(file);
      LOG.info(
          "Generated an admin token (kept in {}, shown only this once; set LINEUP_ADMIN_TOKEN to"
              + " choose your own): {}",
          file,
          token);
      return token;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read or write the admin token file " + file, e);
    }
  }

  /** A new random admin token: {@value #PREFIX} and 32 random bytes in base64url. */
  static String generate() {
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
  }

  private static void restrictToOwner(Path file) {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException | IOException notPosix) {
      // Windows: the folder's own permissions apply.
    }
  }
}
