package io.lineup.server.room;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Eta;
import io.lineup.core.JobFinishedException;
import io.lineup.core.JobInfo;
import io.lineup.core.JobNotFoundException;
import io.lineup.core.JobState;
import io.lineup.core.LeaseLostException;
import io.lineup.core.LeasedJob;
import io.lineup.core.Leases;
import io.lineup.core.Lineup;
import io.lineup.core.NewJob;
import io.lineup.core.QueueSettings;
import io.lineup.core.QueueStats;
import io.lineup.core.RecordStore;
import io.lineup.pass.Ed25519Keys;
import io.lineup.pass.Jwks;
import io.lineup.pass.Pass;
import io.lineup.pass.PassRejectedException;
import io.lineup.pass.PassSigner;
import io.lineup.pass.PassVerifier;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.ErrorCode;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
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
  private static final Pattern GRANT_ID = Pattern.compile("g[A-Za-z0-9_-]{22}");

  /** What a ticket id is, for error messages. */
  public static final String TICKET_ID_RULE = "a ticket id is t and 22 characters of base64url";

  private final Lineup lineup;
  private final RecordStore rooms;
  private final RecordStore keys;
  private final RecordStore polls;
  private final RecordStore leases;
  private final RecordStore revoked;
  private final RecordStore grants;
  private final RecordStore grantUses;
  private final SecureRandom random = new SecureRandom();
  private final Map<RoomKey, RoomSpec> known = new ConcurrentHashMap<>();
  private final Map<RoomKey, KeySet> keyCache = new ConcurrentHashMap<>();
  private final Map<String, Semaphore> admittedSignals = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private Thread admitter;
  private Thread sweeper;

  /** A room's signing keys: the current one and those still published. */
  record KeySet(
      String current, Map<String, PublicKey> publicKeys, PassSigner signer, long readAt) {}

  /**
   * @param lineup the engine
   */
  public RoomService(Lineup lineup) {
    this.lineup = lineup;
    this.rooms = lineup.records("rooms");
    this.keys = lineup.records("room-keys");
    this.polls = lineup.records("room-polls");
    this.leases = lineup.records("room-leases");
    this.revoked = lineup.records("room-revoked");
    this.grants = lineup.records("room-grants");
    this.grantUses = lineup.records("room-grant-uses");
  }

  /** Starts admitting tickets and sweeping abandoned places on this instance. */
  public synchronized void start() {
    if (admitter != null) {
      return;
    }
    admitter = Thread.ofVirtual().name("lineup-room-admit").start(this::admitLoop);
    sweeper = Thread.ofVirtual().name("lineup-room-sweep").start(this::sweepLoop);
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
    Optional<ObjectNode> before = storedRoom(key);
    ObjectNode record = spec.toJson();
    record.put("created_at", before.map(b -> b.path("created_at").asLong(now)).orElse(now));
    record.put("updated_at", now);
    boolean passthrough = spec.method() == RoomSpec.Method.PASSTHROUGH;
    lineup.configure(
        key.queue(),
        QueueSettings.change()
            .withConcurrencyLimit(passthrough ? 0 : spec.maxActive())
            .withRateLimit(passthrough ? 0 : spec.admitPerMinute())
            .withRatePeriod(Duration.ofMinutes(1))
            .withTimeToRun(Duration.ofMillis(spec.passTtlMs()))
            .withMaxAttempts(1)
            // Until admissions have been measured, a slot frees at the latest when its pass ends.
            .withExpectedServiceTime(Duration.ofMillis(spec.passTtlMs()))
            .withRetention(Duration.ofMillis(MARKER_KEEP_MS))
            .withPaused(spec.suspended()));
    rooms.put(key.toString(), Json.MAPPER.valueToTree(record).toString());
    keySet(key, true);
    known.put(key, spec);
    return before.isEmpty();
  }

  /** The room's settings and counts, or empty when there is no such room. */
  public Optional<ObjectNode> room(RoomKey key) {
    Optional<ObjectNode> stored = storedRoom(key);
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
    view.put("pre_queue", preQueue(key).size());
    view.put("jwks_url", "/v1/rooms/" + key.namespace() + "/" + key.name() + "/jwks.json");
    return Optional.of(view);
  }

  /**
   * Deletes a room: nobody joins or is admitted any more, its waiting tickets are dropped, its keys
   * are deleted (so its passes no longer verify). Passes already checked offline stay valid until
   * they expire.
   *
   * @return whether it existed
   */
  public boolean deleteRoom(RoomKey key) {
    if (!rooms.delete(key.toString())) {
      return false;
    }
    known.remove(key);
    lineup.pause(key.queue());
    keys.delete(key.toString());
    keyCache.remove(key);
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
    RoomSpec spec = known.get(key);
    if (spec != null) {
      return spec;
    }
    ObjectNode stored = storedRoom(key).orElseThrow(() -> noRoom(key));
    spec = RoomSpec.parse(settingsOnly(stored));
    known.put(key, spec);
    return spec;
  }

  private static ObjectNode settingsOnly(ObjectNode stored) {
    ObjectNode copy = stored.deepCopy();
    copy.remove("created_at");
    copy.remove("updated_at");
    return copy;
  }

  private static ApiException noRoom(RoomKey key) {
    return ApiException.notFound("no room " + key.name() + " in namespace " + key.namespace());
  }

  private Optional<ObjectNode> storedRoom(RoomKey key) {
    return rooms.get(key.toString()).map(RoomService::readObject);
  }

  private static ObjectNode readObject(String text) {
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
      grant = checkGrant(key, grantId, subject);
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
    String ticket = newId('t');
    if (grant != null && !grantUses.putIfAbsent(grantId, ticket + " " + now)) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant was used already");
    }
    ObjectNode payload = Json.object();
    payload.put("joined_at", now);
    payload.put("priority", priority);
    if (grantId != null) {
      payload.put("grant", grantId);
    }
    polls.put(ticket, key + " " + now);
    if (spec.eventStartAt() > now) {
      // Before the event: held beside the line, put into it (shuffled for random) at the start.
      lineup.records(preQueueName(key)).put(ticket, payload.toString());
    } else {
      lineup.publish(key.queue(), NewJob.ofText(payload.toString()).id(ticket).priority(priority));
      admit(key, spec);
    }
    return ticketView(key, spec, ticket, now);
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
    Optional<String> polled = polls.get(ticket);
    if (polled.isPresent() && !polled.get().startsWith("abandoned ")) {
      polls.put(ticket, key + " " + now);
    }
    admit(key, spec);
    return ticketView(key, spec, ticket, now);
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online).
   *
   * @throws ApiException 400 for a malformed id, 404 for an unknown room or ticket
   */
  public ObjectNode leave(RoomKey key, String ticket) {
    RoomSpec spec = spec(key);
    checkTicketId(ticket);
    ObjectNode before = ticketView(key, spec, ticket, System.currentTimeMillis());
    String status = before.path("status").asText();
    if (status.equals("pre_queue")) {
      lineup.records(preQueueName(key)).delete(ticket);
    } else if (status.equals("admitted")) {
      release(key, ticket);
    } else if (status.equals("waiting")) {
      cancelQuietly(key, ticket);
    }
    polls.delete(ticket);
    if (status.equals("admitted")) {
      admit(key, spec); // the freed slot goes to the next ticket at once
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

  /** A ticket's view without counting as a poll. */
  public ObjectNode ticketView(RoomKey key, RoomSpec spec, String ticket, long now) {
    ObjectNode v = Json.object();
    v.put("ticket", ticket);
    v.put("room", key.toString());
    Optional<JobInfo> found = lineup.get(key.queue(), ticket);
    if (found.isEmpty()) {
      Optional<String> pre = lineup.records(preQueueName(key)).get(ticket);
      if (pre.isEmpty()) {
        // An expired pass's record went with the dead letters the sweep purges; its lease record
        // (kept for an hour) still tells what happened.
        if (leases.get(ticket).isPresent()) {
          v.put("status", "gone");
          v.put("reason", "expired");
          return v;
        }
        if (polls.get(ticket).filter(p -> p.startsWith("abandoned ")).isPresent()) {
          v.put("status", "gone");
          v.put("reason", "abandoned");
          return v;
        }
        throw ApiException.notFound("no ticket " + ticket + " in room " + key);
      }
      v.put("status", "pre_queue");
      v.putNull("position");
      v.put("opens_at", spec.eventStartAt());
      v.put("poll_after_ms", pollAfter(spec, null));
      v.put("grace_ms", spec.graceMs());
      return v;
    }
    JobInfo job = found.get();
    v.put("priority", job.priority());
    v.put("joined_at", job.createdAt().toEpochMilli());
    switch (job.state()) {
      case READY, DELAYED -> {
        v.put("status", "waiting");
        v.put("position", job.position());
        Eta eta = job.eta();
        if (eta == null) {
          v.putNull("eta_ms");
          v.putNull("eta_low_ms");
          v.putNull("eta_high_ms");
        } else {
          v.put("eta_ms", eta.point().toMillis());
          v.put("eta_low_ms", eta.low().toMillis());
          v.put("eta_high_ms", eta.high().toMillis());
        }
        v.put("poll_after_ms", pollAfter(spec, eta));
        v.put("grace_ms", spec.graceMs());
      }
      case LEASED -> {
        v.put("status", "admitted");
        Pass pass = passOf(key, job);
        KeySet set = keySet(key, false);
        v.put("pass", set.signer().sign(withKey(pass, set.current())));
        v.put("pass_id", pass.id());
        v.put("admitted_at", job.startedAt().toEpochMilli());
        v.put("pass_expires_at", pass.expiresAt().toEpochMilli());
        v.put("renewable", spec.renewable());
      }
      default -> {
        v.put("status", "gone");
        v.put("reason", goneReason(ticket, job.state()));
      }
    }
    return v;
  }

  private String goneReason(String ticket, JobState state) {
    return switch (state) {
      case DONE -> "released";
      case DEAD, EXPIRED -> "expired";
      default ->
          polls.get(ticket).filter(p -> p.startsWith("abandoned ")).isPresent()
              ? "abandoned"
              : "left";
    };
  }

  private static long pollAfter(RoomSpec spec, Eta eta) {
    long wanted = eta == null ? MIN_POLL_MS * 2 : eta.low().toMillis() / 4;
    long bounded = Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, wanted));
    // Polls keep the place: at least three chances within the grace.
    return Math.max(200, Math.min(bounded, spec.graceMs() / 3));
  }

  private static Pass withKey(Pass pass, String kid) {
    return new Pass(pass.room(), pass.ticket(), pass.id(), pass.issuedAt(), pass.expiresAt(), kid);
  }

  /** The pass of an admitted ticket (signing key left for the caller to fill in). */
  private static Pass passOf(RoomKey key, JobInfo job) {
    long startedMs = job.startedAt().toEpochMilli();
    String jti = jtiOf(job);
    Instant exp = Instant.ofEpochSecond(job.leaseDeadline().getEpochSecond());
    return new Pass(
        key.toString(), job.id(), jti, Instant.ofEpochSecond(startedMs / 1000), exp, "-");
  }

  /** The pass id of a ticket's latest admission: the ticket and the moment of its lease. */
  private static String jtiOf(JobInfo job) {
    return job.startedAt() == null
        ? ""
        : job.id() + "." + Long.toString(job.startedAt().toEpochMilli(), 36);
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
    return ticketView(key, spec, ticket, System.currentTimeMillis());
  }

  // ---- admission ----

  /** Admits as many of the room's tickets as its limits allow now; returns how many. */
  int admit(RoomKey key, RoomSpec spec) {
    if (spec.suspended()) {
      return 0;
    }
    int admitted = 0;
    while (!closed) {
      Leases got = lineup.lease(key.queue(), ADMIT_BATCH, Duration.ZERO);
      for (LeasedJob job : got.jobs()) {
        leases.put(job.id(), job.token() + " " + job.leaseDeadline().toEpochMilli());
        polls.delete(job.id());
        Semaphore signal = admittedSignals.get(job.id());
        if (signal != null) {
          signal.release();
        }
      }
      admitted += got.jobs().size();
      if (got.jobs().size() < ADMIT_BATCH) {
        return admitted;
      }
    }
    return admitted;
  }

  /**
   * Waits until the ticket may have changed (admitted on this instance) or {@code maxMs} passes.
   */
  public void awaitChange(String ticket, long maxMs) throws InterruptedException {
    Semaphore signal = admittedSignals.get(ticket);
    if (signal == null) {
      Thread.sleep(Math.max(1, maxMs));
    } else if (signal.tryAcquire(Math.max(1, maxMs), TimeUnit.MILLISECONDS)) {
      signal.drainPermits();
    }
  }

  /** Starts waking {@link #awaitChange} callers of this ticket when this instance admits it. */
  public void watch(String ticket) {
    admittedSignals.computeIfAbsent(ticket, t -> new Semaphore(0));
  }

  /** Stops watching a ticket (the last stream of it ended). */
  public void unwatch(String ticket) {
    admittedSignals.remove(ticket);
  }

  private void admitLoop() {
    long lastSync = 0;
    while (!closed) {
      try {
        long now = System.currentTimeMillis();
        if (now - lastSync >= 1_000) {
          syncRooms();
          lastSync = now;
        }
        for (var e : known.entrySet()) {
          openEvent(e.getKey(), e.getValue(), now);
          admit(e.getKey(), e.getValue());
        }
        Thread.sleep(ADMIT_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (!closed) {
          LOG.warn("Admitting tickets failed, trying again: {}", e.toString());
          try {
            Thread.sleep(500);
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  private void syncRooms() {
    Map<RoomKey, RoomSpec> fresh = new LinkedHashMap<>();
    for (var e : rooms.all().entrySet()) {
      try {
        fresh.put(
            RoomKey.parse(e.getKey()), RoomSpec.parse(settingsOnly(readObject(e.getValue()))));
      } catch (RuntimeException ex) {
        LOG.warn("Skipping the unreadable room record {}: {}", e.getKey(), ex.toString());
      }
    }
    known.keySet().retainAll(fresh.keySet());
    known.putAll(fresh);
  }

  // ---- scheduled events ----

  private static String preQueueName(RoomKey key) {
    return "room-pre:" + key;
  }

  private Map<String, String> preQueue(RoomKey key) {
    return lineup.records(preQueueName(key)).all();
  }

  /**
   * At the event start, puts the pre-queue into the line: shuffled for method random, in order of
   * joining otherwise. Every instance may do it; a ticket's id makes its publish idempotent.
   */
  void openEvent(RoomKey key, RoomSpec spec, long now) {
    if (spec.eventStartAt() == 0 || now < spec.eventStartAt()) {
      return;
    }
    RecordStore pre = lineup.records(preQueueName(key));
    Map<String, String> waiting = pre.all();
    if (waiting.isEmpty()) {
      return;
    }
    List<Map.Entry<String, String>> order = new ArrayList<>(waiting.entrySet());
    if (spec.method() == RoomSpec.Method.RANDOM) {
      Collections.shuffle(order, random);
    } else {
      order.sort((a, b) -> Long.compare(joinedAt(a.getValue()), joinedAt(b.getValue())));
    }
    for (int from = 0; from < order.size(); from += 1000) {
      List<NewJob> jobs = new ArrayList<>();
      for (var e : order.subList(from, Math.min(order.size(), from + 1000))) {
        ObjectNode p = readObject(e.getValue());
        jobs.add(NewJob.ofText(e.getValue()).id(e.getKey()).priority(p.path("priority").asInt()));
      }
      lineup.publishAll(key.queue(), jobs);
    }
    for (var e : order) {
      pre.delete(e.getKey());
    }
  }

  private static long joinedAt(String payload) {
    return readObject(payload).path("joined_at").asLong();
  }

  // ---- abandonment ----

  private void sweepLoop() {
    while (!closed) {
      try {
        sweep(System.currentTimeMillis());
        Thread.sleep(SWEEP_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (!closed) {
          LOG.warn("Sweeping rooms failed, trying again: {}", e.toString());
          try {
            Thread.sleep(1_000);
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  /**
   * Drops the places of waiting tickets not polled within their room's grace (the place is
   * cancelled, so it is no longer counted), forgets ended leases and old markers, and purges the
   * dead letters expired passes leave.
   */
  void sweep(long now) {
    for (var e : polls.all().entrySet()) {
      String[] parts = e.getValue().split(" ");
      if (parts[0].equals("abandoned")) {
        if (now - Long.parseLong(parts[2]) > MARKER_KEEP_MS) {
          polls.delete(e.getKey());
        }
        continue;
      }
      RoomKey key = RoomKey.parse(parts[0]);
      RoomSpec spec = known.get(key);
      if (spec == null) {
        if (!rooms.get(key.toString()).isPresent()) {
          polls.delete(e.getKey());
        }
        continue;
      }
      if (now - Long.parseLong(parts[1]) > spec.graceMs()) {
        String ticket = e.getKey();
        if (lineup.records(preQueueName(key)).delete(ticket)) {
          polls.put(ticket, "abandoned " + key + " " + now);
          continue;
        }
        try {
          JobState before = lineup.cancel(key.queue(), ticket);
          if (before == JobState.LEASED) {
            // Admitted meanwhile by another instance: its place was taken, not abandoned.
            LOG.debug("Ticket {} was admitted while being swept", ticket);
          }
          polls.put(ticket, "abandoned " + key + " " + now);
        } catch (JobNotFoundException | JobFinishedException ex) {
          polls.delete(ticket);
        }
      }
    }
    for (var e : leases.all().entrySet()) {
      long deadline = Long.parseLong(e.getValue().split(" ")[1]);
      if (now - deadline > MARKER_KEEP_MS) {
        leases.delete(e.getKey());
      }
    }
    for (var e : revoked.all().entrySet()) {
      long exp = Long.parseLong(e.getValue().split(" ")[1]);
      if (now - exp > MARKER_KEEP_MS) {
        revoked.delete(e.getKey());
      }
    }
    for (RoomKey key : known.keySet()) {
      lineup.purgeDead(key.queue());
    }
  }

  // ---- keys and passes ----

  /** The room's signing keys, created on first use; read again when older than 1 s. */
  KeySet keySet(RoomKey key, boolean fresh) {
    KeySet cached = keyCache.get(key);
    long now = System.currentTimeMillis();
    if (!fresh && cached != null && now - cached.readAt() < 1_000) {
      return cached;
    }
    Optional<String> stored = keys.get(key.toString());
    if (stored.isEmpty()) {
      keys.putIfAbsent(key.toString(), newKeyRecord(List.of(), now).toString());
      stored = keys.get(key.toString());
    }
    KeySet set = readKeys(stored.orElseThrow(() -> noRoom(key)), now);
    keyCache.put(key, set);
    return set;
  }

  private KeySet readKeys(String text, long now) {
    ObjectNode record = readObject(text);
    Map<String, PublicKey> published = new LinkedHashMap<>();
    PassSigner signer = null;
    String current = record.path("current").asText();
    for (JsonNode k : record.path("keys")) {
      String kid = k.path("kid").asText();
      long retireAt = k.path("retire_at").asLong(0);
      if (retireAt != 0 && retireAt < now) {
        continue;
      }
      published.put(kid, Ed25519Keys.fromRaw(Base64.getUrlDecoder().decode(k.path("x").asText())));
      if (kid.equals(current)) {
        signer = new PassSigner(kid, Ed25519Keys.privateKeyFromText(k.path("d").asText()));
      }
    }
    if (signer == null) {
      throw new IllegalStateException("a room's key record has no current key");
    }
    return new KeySet(current, published, signer, now);
  }

  private ObjectNode newKeyRecord(List<JsonNode> older, long now) {
    KeyPair pair = Ed25519Keys.generate();
    String kid = newId('k').substring(0, 12);
    ObjectNode record = Json.object();
    record.put("current", kid);
    ArrayNode list = record.putArray("keys");
    older.forEach(list::add);
    ObjectNode k = list.addObject();
    k.put("kid", kid);
    k.put(
        "x",
        Base64.getUrlEncoder().withoutPadding().encodeToString(Ed25519Keys.raw(pair.getPublic())));
    // The private key is kept only here, in Redis; no answer and no log line carries it.
    k.put("d", Ed25519Keys.privateKeyText(pair.getPrivate()));
    k.put("created_at", now);
    return record;
  }

  /**
   * Makes a new signing key current. The old one stays published until the passes it signed can
   * have expired (the pass lifetime plus {@link #KEY_OVERLAP_MS}), then is dropped.
   *
   * @return the room's published key ids after the rotation
   */
  public ObjectNode rotateKey(RoomKey key) {
    RoomSpec spec = spec(key);
    long now = System.currentTimeMillis();
    ObjectNode record = readObject(keys.get(key.toString()).orElseThrow(() -> noRoom(key)));
    String current = record.path("current").asText();
    List<JsonNode> kept = new ArrayList<>();
    for (JsonNode k : record.path("keys")) {
      ObjectNode copy = (ObjectNode) k.deepCopy();
      long retireAt = copy.path("retire_at").asLong(0);
      if (copy.path("kid").asText().equals(current)) {
        copy.put("retire_at", now + spec.passTtlMs() + KEY_OVERLAP_MS);
      } else if (retireAt != 0 && retireAt < now) {
        continue;
      }
      kept.add(copy);
    }
    ObjectNode fresh = newKeyRecord(kept, now);
    keys.put(key.toString(), fresh.toString());
    KeySet set = keySet(key, true);
    ObjectNode answer = Json.object();
    answer.put("current_kid", set.current());
    ArrayNode ids = answer.putArray("published_kids");
    set.publicKeys().keySet().forEach(ids::add);
    return answer;
  }

  /** The room's public keys as a JWKS. */
  public String jwks(RoomKey key) {
    spec(key);
    return Jwks.toJson(keySet(key, false).publicKeys());
  }

  /** The fields {@code POST /v1/passes/verify} takes. */
  static final Set<String> VERIFY_FIELDS = Set.of("pass", "room");

  /**
   * Verifies a pass online: what {@link PassVerifier} checks, and also that it was not revoked and
   * that its ticket still holds its slot (not released, expired or abandoned).
   *
   * @throws ApiException 400 for a malformed body or room, 403 when the token may not act in the
   *     room's namespace, 404 for an unknown room, 403 {@code pass_rejected} with the reason
   */
  public ObjectNode verify(JsonNode body, Principal principal) {
    JsonFields f = JsonFields.of(body, "", VERIFY_FIELDS);
    String token = f.requiredText("pass", PassVerifier.MAX_TOKEN_LENGTH);
    String roomText = f.requiredText("room", 130);
    RoomKey key;
    try {
      key = RoomKey.parse(roomText);
    } catch (io.lineup.core.InvalidArgumentException e) {
      throw ApiException.invalidField("room", "must be namespace/room: " + e.reason());
    }
    if (!principal.covers(key.namespace())) {
      throw ApiException.forbidden("the token may not act in namespace " + key.namespace());
    }
    spec(key);
    Pass pass;
    try {
      pass = PassVerifier.of(keySet(key, false).publicKeys()).verify(token, key.toString());
    } catch (PassRejectedException e) {
      if (e.reason() == PassRejectedException.Reason.UNKNOWN_KEY) {
        // A key rotated on another instance within the cache's second: read the keys again.
        try {
          pass = PassVerifier.of(keySet(key, true).publicKeys()).verify(token, key.toString());
        } catch (PassRejectedException again) {
          throw rejected(again.reason(), again.getMessage());
        }
      } else {
        throw rejected(e.reason(), e.getMessage());
      }
    }
    if (revoked.get(pass.id()).isPresent()) {
      throw rejected(PassRejectedException.Reason.REVOKED, "the pass was revoked");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), pass.ticket());
    if (job.isEmpty()
        || job.get().state() != JobState.LEASED
        || !jtiOf(job.get()).equals(pass.id())) {
      throw rejected(PassRejectedException.Reason.REVOKED, "the ticket no longer holds its slot");
    }
    ObjectNode answer = Json.object();
    answer.put("valid", true);
    answer.put("room", pass.room());
    answer.put("ticket", pass.ticket());
    answer.put("pass_id", pass.id());
    answer.put("kid", pass.keyId());
    answer.put("issued_at", pass.issuedAt().toEpochMilli());
    answer.put("expires_at", pass.expiresAt().toEpochMilli());
    return answer;
  }

  private static ApiException rejected(PassRejectedException.Reason reason, String message) {
    String code = reason.name().toLowerCase(java.util.Locale.ROOT);
    if (reason == PassRejectedException.Reason.MALFORMED) {
      return ApiException.invalidField("pass", "not a pass: " + message).with("reason", code);
    }
    return new ApiException(ErrorCode.PASS_REJECTED, "pass", message).with("reason", code);
  }

  /**
   * Revokes a pass: it no longer verifies online, and its slot is freed at once.
   *
   * @throws ApiException 400 for a malformed pass id, 404 when the room has no such pass
   */
  public void revoke(RoomKey key, String jti) {
    spec(key);
    int dot = jti.indexOf('.');
    String ticket = dot < 0 ? "" : jti.substring(0, dot);
    if (!isTicketId(ticket) || jti.length() > 40) {
      throw new ApiException(
          ErrorCode.INVALID_NAME, "jti", "a pass id is <ticket id>.<base-36 time>");
    }
    Optional<JobInfo> job = lineup.get(key.queue(), ticket);
    if (job.isEmpty() || !jtiOf(job.get()).equals(jti)) {
      throw ApiException.notFound("no pass " + jti + " in room " + key);
    }
    long exp =
        job.get().leaseDeadline() == null
            ? System.currentTimeMillis()
            : job.get().leaseDeadline().toEpochMilli();
    revoked.put(jti, key + " " + exp);
    if (job.get().state() == JobState.LEASED) {
      release(key, ticket);
    }
  }

  // ---- grants ----

  /** The fields {@code POST .../grants} takes. */
  static final Set<String> GRANT_FIELDS = Set.of("priority", "subject", "ttl_ms", "note");

  /**
   * Creates a single-use priority grant for the room.
   *
   * @throws ApiException 400 naming a bad field, 403 {@code priority_not_allowed} above the token's
   *     maximum priority
   */
  public ObjectNode createGrant(RoomKey key, JsonNode body, Principal principal) {
    spec(key);
    JsonFields f = JsonFields.of(body, "", GRANT_FIELDS);
    Integer priority = f.optionalInt("priority", -255, 255);
    if (priority == null) {
      throw ApiException.invalidField("priority", "is required: an integer from -255 to 255");
    }
    if (priority > principal.maxPriority()) {
      throw new ApiException(
              ErrorCode.PRIORITY_NOT_ALLOWED,
              "priority",
              "priority " + priority + " is above the token's " + principal.maxPriority())
          .with("max_priority", principal.maxPriority());
    }
    long ttl = f.longOr("ttl_ms", 1_000, MAX_GRANT_TTL_MS, 3_600_000);
    String subject = f.optionalText("subject", MAX_GRANT_TEXT);
    String note = f.optionalText("note", MAX_GRANT_TEXT);
    long now = System.currentTimeMillis();
    String id = newId('g');
    ObjectNode g = Json.object();
    g.put("grant", id);
    g.put("room", key.toString());
    g.put("priority", priority);
    putText(g, "subject", subject);
    putText(g, "note", note);
    g.put("created_at", now);
    g.put("expires_at", now + ttl);
    g.put("created_by", principal.tokenId());
    grants.put(id, g.toString());
    return g;
  }

  private static void putText(ObjectNode o, String name, String value) {
    if (value == null) {
      o.putNull(name);
    } else {
      o.put(name, value);
    }
  }

  private ObjectNode checkGrant(RoomKey key, String grantId, String subject) {
    if (!GRANT_ID.matcher(grantId).matches()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "no such grant");
    }
    ObjectNode g =
        grants
            .get(grantId)
            .map(RoomService::readObject)
            .orElseThrow(() -> new ApiException(ErrorCode.GRANT_REFUSED, "grant", "no such grant"));
    if (!g.path("room").asText().equals(key.toString())) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant is for another room");
    }
    if (g.path("expires_at").asLong() <= System.currentTimeMillis()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant has expired");
    }
    if (grantUses.get(grantId).isPresent()) {
      throw new ApiException(ErrorCode.GRANT_REFUSED, "grant", "the grant was used already");
    }
    if (!g.path("subject").isNull() && !g.path("subject").asText().equals(subject)) {
      throw new ApiException(
          ErrorCode.GRANT_REFUSED, "subject", "the grant is for another subject");
    }
    return g;
  }

  /** The room's grants, newest first, each with the ticket that used it (null while unused). */
  public ObjectNode grantLog(RoomKey key) {
    spec(key);
    List<ObjectNode> list = new ArrayList<>();
    for (String text : grants.all().values()) {
      ObjectNode g = readObject(text);
      if (!g.path("room").asText().equals(key.toString())) {
        continue;
      }
      Optional<String> use = grantUses.get(g.path("grant").asText());
      if (use.isPresent()) {
        String[] parts = use.get().split(" ");
        g.put("used_by_ticket", parts[0]);
        g.put("used_at", Long.parseLong(parts[1]));
      } else {
        g.putNull("used_by_ticket");
        g.putNull("used_at");
      }
      list.add(g);
    }
    list.sort((a, b) -> Long.compare(b.path("created_at").asLong(), a.path("created_at").asLong()));
    ObjectNode answer = Json.object();
    ArrayNode items = answer.putArray("grants");
    list.forEach(items::add);
    return answer;
  }

  // ---- ids ----

  private String newId(char prefix) {
    byte[] bytes = new byte[ID_RANDOM_BYTES];
    random.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
