package io.lineup.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds the data folder of a server that runs its own Redis, so a second server started on the same
 * folder stops before it touches anything (it would otherwise stop the first one's Redis).
 *
 * <p>The lock is an operating-system lock on the file {@value #FILE_NAME} in the data folder,
 * released when the server stops or its process dies, even by {@code kill -9}. The file holds the
 * process id of the holder, for the message a refused server prints; it is left in place after the
 * server stops (deleting it could let two servers hold two different files of the same name).
 */
final class DataFolderLock implements AutoCloseable {
  /** The lock file in the data folder. */
  public static final String FILE_NAME = "lineup.lock";

  /**
   * Folders held by this process. An operating-system lock is held per process, and closing any
   * other channel on the file would release it, so a second server in the same process is refused
   * here, before it opens the file.
   */
  private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

  private final Path folder;
  private final FileChannel channel;
  private final FileLock lock;

  private DataFolderLock(Path folder, FileChannel channel, FileLock lock) {
    this.folder = folder;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of a data folder, creating the folder when it does not exist.
   *
   * @throws StartupException when another server holds the folder, or the lock file cannot be
   *     created or locked
   */
  public static DataFolderLock acquire(Path dataDir) {
    Path folder = dataDir.toAbsolutePath().normalize();
    if (!HELD_HERE.add(folder)) {
      throw inUse(folder, "in this process");
    }
    FileChannel channel = null;
    try {
      Files.createDirectories(folder);
      Path file = folder.resolve(FILE_NAME);
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException sameFileOtherName) {
        // This process holds the file under another name for the folder (a symbolic link).
        throw inUse(folder, "in this process");
      }
      if (lock == null) {
        String holder = holderOf(channel);
        throw inUse(folder, holder == null ? null : "pid " + holder);
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
          0);
      return new DataFolderLock(folder, channel, lock);
    } catch (IOException | RuntimeException e) {
      HELD_HERE.remove(folder);
      closeQuietly(channel);
      if (e instanceof StartupException refused) {
        throw refused;
      }
      throw new StartupException(
          "Cannot lock the data folder " + folder + " (" + e.getMessage() + ")", e);
    }
  }

  /** The folder held. */
  public Path folder() {
    return folder;
  }

  /** Releases the folder; safe to call twice. */
  @Override
  public void close() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } catch (IOException e) {
      // Closing the channel below releases it as well.
    } finally {
      closeQuietly(channel);
      HELD_HERE.remove(folder);
    }
  }

  private static StartupException inUse(Path folder, String holder) {
    return new StartupException(
        "The data folder "
            + folder
            + " is in use by another Lineup server"
            + (holder == null ? "" : " (" + holder + ")")
            + "; stop that one first, or give this one its own folder with LINEUP_DATA_DIR or"
            + " --data-dir. Nothing was changed.");
  }

  /** The process id the holder wrote, or null when it cannot be read. */
  private static String holderOf(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      channel.read(buffer, 0);
      String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII);
      String pid = text.trim();
      return pid.matches("[0-9]{1,19}") ? pid : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // Nothing more can be done; the process's exit releases the lock.
    }
  }
}
