package io.lineup.core.internal.store;

import io.lineup.core.model.MissedTicks;
import io.lineup.core.model.ScheduleSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A schedule's spec as Redis keeps it (a field of the queue's spec hash): a format number, then
 * every field in order; no script reads it. Durations are kept in nanoseconds and instants to the
 * nanosecond, so a spec reads back equal to the one written.
 */
public final class ScheduleCodec {
  private static final int FORMAT = 1;

  private ScheduleCodec() {}

  /** The stored form of a spec. */
  public static byte[] encode(ScheduleSpec spec) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + spec.payload().length);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeUTF(spec.name());
      out.writeBoolean(spec.isCron());
      if (spec.isCron()) {
        out.writeUTF(spec.cron());
        out.writeUTF(spec.zone().getId());
      } else {
        out.writeLong(spec.every().toNanos());
      }
      byte[] payload = spec.payload();
      out.writeInt(payload.length);
      out.write(payload);
      out.writeInt(spec.priority());
      writeText(out, spec.key());
      writeDuration(out, spec.ttl());
      out.writeInt(spec.maxAttempts() == null ? -1 : spec.maxAttempts());
      writeDuration(out, spec.timeToRun());
      writeInstant(out, spec.startAt());
      writeInstant(out, spec.endAt());
      out.writeLong(spec.maxRuns() == null ? -1 : spec.maxRuns());
      out.writeLong(spec.jitter().toNanos());
      out.writeBoolean(spec.paused());
      out.writeUTF(spec.missed().name());
      out.writeInt(spec.catchUpMax());
      out.writeInt(spec.historySize());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * A spec from its stored form.
   *
   * @throws IllegalStateException when the bytes are not a stored spec of a known format
   */
  public static ScheduleSpec decode(byte[] stored) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored))) {
      int format = in.readByte();
      if (format != FORMAT) {
        throw new IllegalStateException("Unknown stored schedule format " + format);
      }
      String name = in.readUTF();
      ScheduleSpec.Builder builder;
      if (in.readBoolean()) {
        String cron = in.readUTF();
        builder = ScheduleSpec.cron(name, cron, ZoneId.of(in.readUTF()));
      } else {
        builder = ScheduleSpec.every(name, Duration.ofNanos(in.readLong()));
      }
      byte[] payload = new byte[in.readInt()];
      in.readFully(payload);
      builder.payload(payload).priority(in.readInt()).key(readText(in)).ttl(readDuration(in));
      int maxAttempts = in.readInt();
      builder.maxAttempts(maxAttempts < 0 ? null : maxAttempts);
      builder.timeToRun(readDuration(in)).startAt(readInstant(in)).endAt(readInstant(in));
      long maxRuns = in.readLong();
      builder.maxRuns(maxRuns < 0 ? null : maxRuns);
      builder.jitter(Duration.ofNanos(in.readLong())).paused(in.readBoolean());
      builder.missed(MissedTicks.valueOf(in.readUTF()));
      builder.catchUpMax(in.readInt()).historySize(in.readInt());
      return builder.build();
    } catch (IOException e) {
      throw new IllegalStateException("A stored schedule spec is cut short", e);
    }
  }

  private static void writeText(DataOutputStream out, String text) throws IOException {
    out.writeBoolean(text != null);
    if (text != null) {
      out.writeUTF(text);
    }
  }

  private static String readText(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }

  private static void writeDuration(DataOutputStream out, Duration duration) throws IOException {
    out.writeLong(duration == null ? -1 : duration.toNanos());
  }

  private static Duration readDuration(DataInputStream in) throws IOException {
    long nanos = in.readLong();
    return nanos < 0 ? null : Duration.ofNanos(nanos);
  }

  private static void writeInstant(DataOutputStream out, Instant instant) throws IOException {
    out.writeBoolean(instant != null);
    if (instant != null) {
      out.writeLong(instant.getEpochSecond());
      out.writeInt(instant.getNano());
    }
  }

  private static Instant readInstant(DataInputStream in) throws IOException {
    return in.readBoolean() ? Instant.ofEpochSecond(in.readLong(), in.readInt()) : null;
  }
}
