package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.pass.Pass;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Waiting rooms on one engine, seen from this instance: rooms (settings in Redis, read by every
 * instance), tickets (jobs of the room's queue: the engine keeps the exact position by priority
 * then arrival), admission (a lease of the ticket, within the queue's concurrency limit = {@code
 * max_active} and its rate limit = {@code admit_per_minute} per 60 s, so both hold across every
 * instance), passes (Ed25519 JWTs whose lifetime is the lease's), abandonment, grants and
 * revocations. Uses the engine's public API only.
 *
 * <p>{@link #room} gives one room's operations; {@link #start} runs this instance's share of the
 * admissions and sweeps (without it, joins and polls still admit by themselves); {@link #close}
 * stops them. Thread-safe.
 */
public final class Rooms implements AutoCloseable {
  /** How often an instance admits tickets of every room, in ms. */
  public static final long ADMIT_INTERVAL_MS = 50;

  /**
   * Shortest time between two sweeps of an instance (which drop abandoned places and stale
   * records), in ms. A sweep reads every ticket's poll record, so an instance sweeps only as often
   * as the shortest grace of its rooms needs: every {@link #SWEEP_GRACE_SHARE}th of that grace, at
   * least this and at most {@link #SWEEP_INTERVAL_MAX_MS} apart.
   */
  public static final long SWEEP_INTERVAL_MS = 250;

  /** Longest time between two sweeps of an instance, in ms: 15 s. */
  public static final long SWEEP_INTERVAL_MAX_MS = 15_000;

  /**
   * A sweep runs every this fraction of the shortest grace of the instance's rooms, so a ticket
   * that stopped polling is dropped at most a twentieth of its grace late (a 5 min grace: within 15
   * s).
   */
  public static final int SWEEP_GRACE_SHARE = 20;

  /** Random bytes in a ticket id or a grant id: 128 bits, so ids cannot be guessed. */
  public static final int ID_RANDOM_BYTES = 16;

  /** Shortest suggested poll interval: 1 s. */
  public static final long MIN_POLL_MS = 1_000;

  /** Longest suggested poll interval: 15 s (and never more than a third of the grace). */
  public static final long MAX_POLL_MS = 15_000;

  /** Tickets admitted per engine call. */
  static final int ADMIT_BATCH = 100;

  /** How long a retired signing key stays published beyond the room's pass lifetime: 1 min. */
  public static final long KEY_OVERLAP_MS = 60_000;

  /** Longest grant lifetime: 30 days. */
  public static final long MAX_GRANT_TTL_MS = 30L * 86_400_000;

  /** Longest grant subject and note, in characters. */
  public static final int MAX_GRANT_TEXT = 256;

  /**
   * How long markers of abandoned tickets, of tickets of deleted rooms and of revoked passes are
   * kept beyond their use, in ms: 1 h.
   */
  static final long MARKER_KEEP_MS = 3_600_000;

  private static final Pattern TICKET_ID = Pattern.compile("t[A-Za-z0-9_-]{22}");

  /** What a ticket id is, for error messages. */
  public static final String TICKET_ID_RULE = "a ticket id is t and 22 characters of base64url";

  private final Lineup lineup;
  private final RoomSettingsStore settings;
  private final RoomSigningKeys signingKeys;
  private final RoomGrants grants;
  private final AdmissionTicker admissions;
  private final OnlinePassCheck passCheck;
  private final AbandonmentSweeper sweep;
  private final TicketReader reader;
  private final TicketPolls tickets;
  private final TicketJoins joins;
  private final RoomCatalog catalog;
  private final DeletedRoomTickets deleted;
  private final RoomWatchers watchers;
  private volatile boolean closed;
  private Thread admitter;
  private Thread sweeper;

  /**
   * Starts this instance's copy of the rooms' settings (read again every second); call {@link
   * #close} to stop it.
   *
   * <p>While Redis is away the copy starts empty and fills once it answers.
   *
   * @param lineup the engine
   */
  public Rooms(Lineup lineup) {
    this(lineup, RoomSettingsStore.SYNC_INTERVAL);
  }

  /**
   * {@link #Rooms(Lineup)} with another interval of the settings' copy (tests hold an instance's
   * copy stale with a long one).
   */
  Rooms(Lineup lineup, Duration syncInterval) {
    this.lineup = lineup;
    RoomIds ids = new RoomIds();
    this.settings = new RoomSettingsStore(lineup, syncInterval);
    this.signingKeys = new RoomSigningKeys(lineup, ids);
    RecordStore polls = lineup.records("room-polls");
    RecordStore leases = lineup.records("room-leases");
    RecordStore revoked = lineup.records("room-revoked");
    this.grants = new RoomGrants(lineup, ids);
    RoomEtas etas = new RoomEtas(lineup);
    PreQueue preQueue = new PreQueue(lineup, settings);
    this.sweep =
        new AbandonmentSweeper(
            lineup, settings.records(), polls, leases, revoked, settings::known, preQueue);
    this.admissions = new AdmissionTicker(lineup, leases, settings::known, preQueue, () -> closed);
    this.passCheck = new OnlinePassCheck(lineup, revoked, leases, signingKeys, settings::spec);
    this.reader = new TicketReader(lineup, polls, leases, revoked, preQueue, etas, signingKeys);
    this.tickets = new TicketPolls(lineup, polls, leases, preQueue, admissions, reader);
    this.deleted = new DeletedRoomTickets(lineup, polls, leases, preQueue);
    this.joins =
        new TicketJoins(
            lineup, polls, ids, grants, preQueue, admissions, reader, tickets, settings, deleted);
    this.catalog =
        new RoomCatalog(lineup, settings, signingKeys, etas, admissions, preQueue, grants, deleted);
    this.watchers = new RoomWatchers(lineup, polls, settings, reader);
    admissions.onAdmitted(watchers::admitted);
  }

  /** Starts admitting tickets and sweeping abandoned places on this instance. */
  public synchronized void start() {
    if (admitter != null) {
      return;
    }
    admitter = Thread.ofVirtual().name("lineup-room-admit").start(admissions::loop);
    sweeper = Thread.ofVirtual().name("lineup-room-sweep").start(() -> sweep.loop(() -> closed));
  }

  /**
   * Stops admitting, sweeping, watching rooms for their followers (whose followings end) and
   * reading the settings; waits up to 5 s for each to end.
   */
  @Override
  public synchronized void close() {
    closed = true;
    watchers.close();
    for (Thread t : new Thread[] {admitter, sweeper}) {
      if (t != null) {
        t.interrupt();
        try {
          t.join(5_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    settings.close();
  }

  /**
   * One room's operations. Nothing is read here: each operation on a room that does not exist
   * throws {@link RoomNotFoundException} (but {@link Room#put}, which creates it).
   */
  public Room room(RoomKey key) {
    return new Room(this, key);
  }

  /** The rooms of a namespace with their settings and counts, by name. */
  public List<RoomInfo> list(String namespace) {
    return catalog.list(namespace);
  }

  /**
   * Verifies a pass online: what {@link io.lineup.pass.PassVerifier} checks, and also that it was
   * not revoked and that its ticket still holds its slot (not released, expired or abandoned).
   *
   * @param room the room the pass must be for
   * @param token the pass (a compact JWT)
   * @return the verified pass
   * @throws RoomNotFoundException for an unknown room (but a deleted one)
   * @throws PassRefusedException with the reason ({@code REVOKED} for a pass of a deleted room)
   */
  public Pass verifyPass(RoomKey room, String token) {
    return passCheck.verify(room, token);
  }

  /**
   * How many followers (event streams and long polls, {@link Room#follow}, {@link Room#poll(String,
   * long)}) each room has on this instance; rooms with none are left out.
   */
  public Map<RoomKey, Integer> followers() {
    return watchers.followers();
  }

  /** Whether a text has the form of a ticket id. */
  public static boolean isTicketId(String text) {
    return text != null && TICKET_ID.matcher(text).matches();
  }

  /**
   * @throws MalformedIdException when the text is not a ticket id
   */
  static void checkTicketId(String ticket) {
    if (!isTicketId(ticket)) {
      throw new MalformedIdException("ticket", TICKET_ID_RULE);
    }
  }

  Lineup lineup() {
    return lineup;
  }

  RoomSettingsStore settings() {
    return settings;
  }

  RoomSigningKeys signingKeys() {
    return signingKeys;
  }

  RoomGrants grants() {
    return grants;
  }

  AdmissionTicker admissions() {
    return admissions;
  }

  OnlinePassCheck passCheck() {
    return passCheck;
  }

  TicketReader reader() {
    return reader;
  }

  TicketPolls tickets() {
    return tickets;
  }

  TicketJoins joins() {
    return joins;
  }

  RoomWatchers watchers() {
    return watchers;
  }

  RoomCatalog catalog() {
    return catalog;
  }

  DeletedRoomTickets deleted() {
    return deleted;
  }
}
