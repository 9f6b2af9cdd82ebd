package io.lineup.server.room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.ErrorCode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waiting rooms on this server instance: rooms (settings in Redis, read by every instance), tickets
 * (jobs of the room's queue: the engine keeps the exact position by priority then arrival),
 * admission (a lease of the ticket, within the queue's concurrency limit = {@code max_active} and
 * its rate limit = {@code admit_per_minute} per 60 s, so both hold across every instance), passes
 * (Ed25519 JWTs whose lifetime is the lease's), abandonment, grants and revocations. Uses the
 * engine's public API only.
 */
public final class RoomService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RoomService.class);

  /** How often an instance admits tickets of every room and reads the rooms, in ms. */
  public static final long ADMIT_INTERVAL_MS = 50;

  /** How often an instance drops abandoned places and stale records, in ms. */
  public static final long SWEEP_INTERVAL_MS = 250;

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

  /** How long markers of abandoned tickets and revoked passes are kept beyond their use, in ms. */
  static final long MARKER_KEEP_MS = 3_600_000;

  private static final Pattern TICKET_ID = Pattern.compile("t[A-Za-z0-9_-]{22}");

  /** What a ticket id is, for error messages. */
  public static final String TICKET_ID_RULE = "a ticket id is t and 22 characters of base64url";

  private final Lineup lineup;
  private final RecordStore polls;
  private final RecordStore leases;
  private final RecordStore revoked;
  private final RoomIds ids = new RoomIds();
  private final RoomGrants grants;
  private final RoomSettingsStore settings;
  private final RoomSigningKeys signingKeys;
  private final RoomEtas etas;
  private final AdmissionTicker admissions;
  private final TicketViews views;
  private final OnlinePassCheck passCheck;
  private final PreQueue preQueue;
  private final AbandonmentSweeper sweep;
  private volatile boolean closed;
  private Thread admitter;
  private Thread sweeper;

  /**
   * @param lineup the engine
   */
  public RoomService(Lineup lineup) {
    this.lineup = lineup;
    this.settings = new RoomSettingsStore(lineup);
    this.signingKeys = new RoomSigningKeys(lineup, ids);
    this.polls = lineup.records("room-polls");
    this.leases = lineup.records("room-leases");
    this.revoked = lineup.records("room-revoked");
    this.grants = new RoomGrants(lineup, ids);
    this.etas = new RoomEtas(lineup);
    this.preQueue = new PreQueue(lineup);
    this.sweep =
        new AbandonmentSweeper(
            lineup, settings.records(), polls, leases, revoked, settings.known(), preQueue);
    this.admissions =
        new AdmissionTicker(
            lineup, leases, settings.known(), preQueue, settings::sync, () -> closed);
    this.passCheck = new OnlinePassCheck(lineup, revoked, signingKeys, this::spec);
    this.views = new TicketViews(lineup, polls, leases, preQueue, etas, signingKeys);
  }

  /** Starts admitting tickets and sweeping abandoned places on this instance. */
  public synchronized void start() {
    if (admitter != null) {
      return;
    }
    admitter = Thread.ofVirtual().name("lineup-room-admit").start(admissions::loop);
    sweeper = Thread.ofVirtual().name("lineup-room-sweep").start(() -> sweep.loop(() -> closed));
  }

  @Override
  public synchronized void close() {
    closed = true;
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
  }

  // ---- rooms ----

  /**
   * Creates or replaces a room; its limits hold at once on every instance.
   *
   * @return true when created, false when replaced
   */
  public boolean putRoom(RoomKey key, RoomSpec spec) {
    long now = System.currentTimeMillis();
    Optional<ObjectNode> before = settings.stored(key);
    ObjectNode record = spec.toJson();
    record.put("created_at", before.map(b -> b.path("created_at").asLong(now)).orElse(now));
    record.put("updated_at", now);
    boolean passthrough = spec.method() == RoomSpec.Method.PASSTHROUGH;
    lineup.configure(
        key.queue(),
        QueueSettings.builder()
            .concurrencyLimit(passthrough ? 0 : spec.maxActive())
            .rateLimit(passthrough ? 0 : spec.admitPerMinute())
            .ratePeriod(Duration.ofMinutes(1))
            .timeToRun(Duration.ofMillis(spec.passTtlMs()))
            .maxAttempts(1)
            // Until admissions have been measured, a slot frees at the latest when its pass ends.
            .expectedServiceTime(Duration.ofMillis(spec.passTtlMs()))
            .retention(Duration.ofMillis(MARKER_KEEP_MS))
            .paused(spec.suspended())
            .build());
    settings.save(key, spec, record);
    signingKeys.keySet(key, true);
    etas.forget(key);
    admissions.open(key);
    return before.isEmpty();
  }

  /** The room's settings and counts, or empty when there is no such room. */
  public Optional<ObjectNode> room(RoomKey key) {
    Optional<ObjectNode> stored = settings.stored(key);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode view = Json.object();
    view.put("namespace", key.namespace());
    view.put("room", key.name());
    view.setAll(stored.get());
    QueueStats stats = lineup.stats(key.queue());
    view.put("waiting", stats.ready());
    view.put("active", stats.leased());
    view.put("pre_queue", preQueue.size(key));
    view.put("jwks_url", "/v1/rooms/" + key.namespace() + "/" + key.name() + "/jwks.json");
    return Optional.of(view);
  }

  /** The rooms of a namespace with their settings and counts, by name. */
  public List<ObjectNode> rooms(String namespace) {
    List<ObjectNode> views = new ArrayList<>();
    for (String id : settings.records().all().keySet()) {
      if (id.startsWith(namespace + "/")) {
        room(new RoomKey(namespace, id.substring(namespace.length() + 1))).ifPresent(views::add);
      }
    }
    return views;
  }

  /**
   * Deletes a room: nobody joins or is admitted any more, its waiting tickets are dropped, its keys
   * are deleted (so its passes no longer verify). Passes already checked offline stay valid until
   * they expire.
   *
   * @return whether it existed
   */
  public boolean deleteRoom(RoomKey key) {
    if (!settings.delete(key)) {
      return false;
    }
    etas.forget(key);
    admissions.open(key);
    lineup.pause(key.queue());
    signingKeys.delete(key);
    for (var e : lineup.peek(key.queue(), 0, 1000)) {
      cancelQuietly(key, e.id());
    }
    return true;
  }

  /**
   * The settings of a room.
   *
   * @throws ApiException 404 when there is no such room
   */
  public RoomSpec spec(RoomKey key) {
    return settings.spec(key);
  }

  /** The 404 answer for an unknown room. */
  static ApiException noRoom(RoomKey key) {
    return ApiException.notFound("no room " + key.name() + " in namespace " + key.namespace());
  }

  /** A stored record's JSON object. */
  static ObjectNode readObject(String text) {
    try {
      return (ObjectNode) Json.MAPPER.readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException("a stored room record is not JSON", e);
    }
  }

  // ---- tickets ----

  /** The fields a join takes. */
  static final Set<String> JOIN_FIELDS = Set.of("grant", "subject", "priority");

  /**
   * Joins the line. The priority is the token's maximum (0 for the admin token), or a lower one the
   * body names, or a grant's; a body never raises it above what the token or grant allows.
   *
   * @throws ApiException 404 for an unknown room, 400 for a malformed body, 403 {@code
   *     priority_not_allowed} above the allowed priority, 403 {@code grant_refused} for an unknown,
   *     used, expired or mismatched grant, 409 {@code room_full} for a full room of method reject
   */
  public ObjectNode join(RoomKey key, JsonNode body, Principal principal) {
    RoomSpec spec = spec(key);
    JsonFields f = JsonFields.of(body == null ? Json.object() : body, "", JOIN_FIELDS);
    String grantId = f.optionalText("grant", 64);
    String subject = f.optionalText("subject", MAX_GRANT_TEXT);
    Integer asked = f.optionalInt("priority", -255, 255);
    int allowed = principal.admin() ? 0 : Math.max(-255, Math.min(255, principal.maxPriority()));
    ObjectNode grant = null;
    if (grantId != null) {
      grant = grants.check(key, grantId, subject);
      allowed = grant.path("priority").asInt();
    }
    if (asked != null && asked > allowed) {
      throw new ApiException(
              ErrorCode.PRIORITY_NOT_ALLOWED,
              "priority",
              "priority "
                  + asked
                  + " is above the "
                  + (grant != null ? "grant's" : "token's")
                  + " "
                  + allowed)
          .with("max_priority", allowed);
    }
    int priority = asked != null ? asked : allowed;
    long now = System.currentTimeMillis();
    if (spec.method() == RoomSpec.Method.REJECT) {
      QueueStats stats = lineup.stats(key.queue());
      if (stats.ready() > 0 || stats.leased() >= spec.maxActive()) {
        throw new ApiException(ErrorCode.ROOM_FULL, null, "the room is full; try again later")
            .with("active", stats.leased());
      }
    }
    String ticket = ids.newId('t');
    if (grant != null && !grants.use(grantId, ticket, now)) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant was used already");
    }
    String payload = joinPayload(now, priority, grantId);
    // A ticket in line has its poll record by the time anyone knows its id (the join's answer);
    // handing out its pass deletes it (so the sweep never drops an admitted ticket's place for
    // want of polls).
    PollRecord record = new PollRecord(key.toString(), now, now, priority);
    if (spec.eventStartAt() > now) {
      polls.put(ticket, record.text());
      // Before the event: held beside the line, put into it (shuffled for random) at the start.
      preQueue.of(key).put(ticket, payload);
      return views.ticketView(key, spec, ticket, now);
    }
    // The record is sent (maybe with other joins' records) beside the publish, and both are
    // awaited together: one wait instead of two. The join answers only once both are stored, so
    // nobody can poll or be handed the ticket's pass before its record exists.
    long quiet = admissions.quietMark(key);
    CompletableFuture<Void> recorded = polls.putAsync(ticket, record.text());
    // Should the publish fail, the record left behind is dropped by the sweep after the grace.
    PublishResult published =
        lineup.publish(key.queue(), NewJob.ofText(payload).id(ticket).priority(priority));
    try {
      awaitStored(recorded);
    } catch (RuntimeException e) {
      // In line without its record, the ticket would hold a place the sweep never drops.
      cancelQuietly(key, ticket);
      throw e;
    }
    admissions.admitIfOpen(key, spec, now);
    if (published.position() >= 0 && admissions.noneSince(key, quiet)) {
      // No admission of this instance ran since before the publish, which placed the ticket at
      // this position: the answer needs no second read. (One on another instance in the meantime
      // shows at the next poll, as one just after a read would.)
      return views.waitingAt(key, spec, ticket, record, published.position(), now);
    }
    // Read after the admission (this instance's or another's ticker's may have taken the ticket).
    return views.view(key, spec, ticket, record, now);
  }

  /**
   * A join's payload: {@code {"joined_at":<ms>,"priority":<n>}} and the grant's id when one was
   * used. Written by hand for the common case: it is what Jackson writes, at a fraction of the
   * cost.
   */
  static String joinPayload(long joinedAt, int priority, String grantId) {
    if (grantId != null) {
      ObjectNode payload = Json.object();
      payload.put("joined_at", joinedAt);
      payload.put("priority", priority);
      payload.put("grant", grantId);
      return payload.toString();
    }
    return "{\"joined_at\":" + joinedAt + ",\"priority\":" + priority + "}";
  }

  /**
   * A ticket as it stands: waiting (position, ETA, when to poll), admitted (the pass) or gone. A
   * poll of a waiting ticket keeps its place for another grace period.
   *
   * @throws ApiException 400 for a malformed id, 404 for an unknown room or ticket
   */
  public ObjectNode poll(RoomKey key, String ticket) {
    RoomSpec spec = spec(key);
    checkTicketId(ticket);
    long now = System.currentTimeMillis();
    PollRecord record = polls.get(ticket).map(PollRecord::parse).orElse(null);
    if (record != null) {
      record = record.polledAt(now);
      polls.put(ticket, record.text());
    }
    admissions.admitIfOpen(key, spec, now);
    ObjectNode view = views.view(key, spec, ticket, record, now);
    if (record != null && view.path("reason").asText("").equals("abandoned")) {
      // The sweep dropped the ticket between this poll's read of its record and its write, which
      // went over the sweep's marker: the marker goes back, so the ticket keeps reading as dropped
      // and the sweep does not take it for a waiting one.
      polls.put(ticket, PollRecord.abandoned(key, now));
    }
    return view;
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online).
   *
   * @throws ApiException 400 for a malformed id, 404 for an unknown room or ticket
   */
  public ObjectNode leave(RoomKey key, String ticket) {
    RoomSpec spec = spec(key);
    checkTicketId(ticket);
    ObjectNode before = views.ticketView(key, spec, ticket, System.currentTimeMillis());
    String status = before.path("status").asText();
    if (status.equals("pre_queue")) {
      preQueue.of(key).delete(ticket);
    } else if (status.equals("admitted")) {
      release(key, ticket);
    } else if (status.equals("waiting")) {
      cancelQuietly(key, ticket);
    }
    polls.delete(ticket);
    if (status.equals("admitted")) {
      admissions.open(key);
      admissions.admit(key, spec); // the freed slot goes to the next ticket at once
    }
    ObjectNode answer = Json.object();
    answer.put("ticket", ticket);
    answer.put("previous_status", status);
    answer.put("status", "gone");
    return answer;
  }

  private void release(RoomKey key, String ticket) {
    Optional<String> lease = leases.get(ticket);
    if (lease.isPresent()) {
      try {
        // An ack, not a cancel: the engine counts it as served, which its ETAs measure.
        lineup.ack(key.queue(), ticket, lease.get().split(" ")[0], null);
      } catch (LeaseLostException | JobNotFoundException | JobFinishedException e) {
        cancelQuietly(key, ticket);
      }
      leases.delete(ticket);
    } else {
      cancelQuietly(key, ticket);
    }
  }

  private void cancelQuietly(RoomKey key, String ticket) {
    try {
      lineup.cancel(key.queue(), ticket);
    } catch (JobNotFoundException | JobFinishedException e) {
      // Gone already: what the caller wanted.
    }
  }

  private void checkTicketId(String ticket) {
    if (ticket == null || !TICKET_ID.matcher(ticket).matches()) {
      throw new ApiException(ErrorCode.INVALID_NAME, "ticket", TICKET_ID_RULE);
    }
  }

  /** Whether a text has the form of a ticket id. */
  public static boolean isTicketId(String text) {
    return text != null && TICKET_ID.matcher(text).matches();
  }

  /**
   * Waits until the ticket may have changed (admitted on this instance) or {@code maxMs} passes.
   *
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public void awaitChange(String ticket, long maxMs) throws InterruptedException {
    admissions.awaitChange(ticket, maxMs);
  }

  /** Starts waking {@link #awaitChange} callers of this ticket when this instance admits it. */
  public void watch(String ticket) {
    admissions.watch(ticket);
  }

  /** Stops watching a ticket (the last stream of it ended). */
  public void unwatch(String ticket) {
    admissions.unwatch(ticket);
  }

  /** A ticket's view without counting as a poll. */
  public ObjectNode ticketView(RoomKey key, RoomSpec spec, String ticket, long now) {
    return views.ticketView(key, spec, ticket, now);
  }

  /**
   * Renews an admitted ticket's pass for another pass lifetime, when the room allows it.
   *
   * @throws ApiException 409 {@code not_renewable} when the room does not allow it or the ticket is
   *     not admitted
   */
  public ObjectNode renew(RoomKey key, String ticket) {
    RoomSpec spec = spec(key);
    checkTicketId(ticket);
    if (!spec.renewable()) {
      throw new ApiException(
          ErrorCode.NOT_RENEWABLE, null, "passes of this room are not renewable");
    }
    Optional<String> lease = leases.get(ticket);
    if (lease.isEmpty()) {
      throw new ApiException(ErrorCode.NOT_RENEWABLE, null, "the ticket holds no pass");
    }
    try {
      Instant deadline =
          lineup.extend(
              key.queue(), ticket, lease.get().split(" ")[0], Duration.ofMillis(spec.passTtlMs()));
      leases.put(ticket, lease.get().split(" ")[0] + " " + deadline.toEpochMilli());
    } catch (LeaseLostException | JobNotFoundException | JobFinishedException e) {
      throw new ApiException(ErrorCode.NOT_RENEWABLE, null, "the pass has ended");
    }
    return views.ticketView(key, spec, ticket, System.currentTimeMillis());
  }

  /**
   * Makes a new signing key current. The old one stays published until the passes it signed can
   * have expired (the pass lifetime plus {@link #KEY_OVERLAP_MS}), then is dropped.
   *
   * @return the room's current and published key ids after the rotation
   * @throws ApiException 404 for an unknown room
   */
  public ObjectNode rotateKey(RoomKey key) {
    return signingKeys.rotate(key, spec(key));
  }

  /**
   * The room's public keys as a JWKS.
   *
   * @throws ApiException 404 for an unknown room
   */
  public String jwks(RoomKey key) {
    spec(key);
    return signingKeys.jwks(key);
  }

  /**
   * Verifies a pass online: what {@link io.lineup.pass.PassVerifier} checks, and also that it was
   * not revoked and that its ticket still holds its slot (not released, expired or abandoned).
   *
   * @throws ApiException 400 for a malformed body or room, 403 when the token may not act in the
   *     room's namespace, 404 for an unknown room, 403 {@code pass_rejected} with the reason
   */
  public ObjectNode verify(JsonNode body, Principal principal) {
    return passCheck.verify(body, principal);
  }

  /**
   * Revokes a pass: it no longer verifies online, and its slot is freed at once.
   *
   * @throws ApiException 404 for an unknown room or pass, 400 for a malformed pass id
   */
  public void revoke(RoomKey key, String jti) {
    spec(key);
    passCheck.revoke(key, jti).ifPresent(ticket -> release(key, ticket));
  }

  // ---- grants ----

  /**
   * Creates a single-use priority grant for the room.
   *
   * @throws ApiException 404 for an unknown room, 400 naming a bad field, 403 {@code
   *     priority_not_allowed} above the token's maximum priority
   */
  public ObjectNode createGrant(RoomKey key, JsonNode body, Principal principal) {
    spec(key);
    return grants.create(key, body, principal);
  }

  /**
   * The room's grants, newest first, each with the ticket that used it (null while unused).
   *
   * @throws ApiException 404 for an unknown room
   */
  public ObjectNode grantLog(RoomKey key) {
    spec(key);
    return grants.log(key);
  }

  /**
   * Waits for a poll record's write, which ends by itself (stored, failed, or timed out: {@link
   * RecordStore#putAsync}).
   *
   * @throws RuntimeException the engine's exception the write failed with ({@link
   *     RedisUnavailableException} when Redis did not answer in time)
   */
  private static void awaitStored(CompletableFuture<Void> write) {
    try {
      // No timeout of its own: a timed wait costs a timer task per call on a virtual thread.
      write.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new RedisUnavailableException("a poll record was not stored", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisUnavailableException("Interrupted while waiting for Redis", e);
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
