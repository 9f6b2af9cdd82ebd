package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.rooms.Room;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomNotFoundException;
import io.lineup.rooms.Rooms;
import io.lineup.rooms.Ticket;
import io.lineup.rooms.TicketFollower;
import io.lineup.rooms.TicketPage;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.DisconnectWatch;
import io.lineup.server.http.LeaseWaiters;
import io.lineup.server.http.RequestBody;
import java.nio.charset.StandardCharsets;

/**
 * Waiting rooms: rooms, tickets, passes, keys and grants. Request bodies are read into the rooms'
 * typed requests ({@link RoomRequests}) and answers written from their values ({@link TicketJson},
 * {@link RoomJson}); the rooms' errors become HTTP answers in the error mapping.
 */
public final class RoomHandlers {
  private final ApiContext api;
  // Streams and ticket long polls watched for a hang-up. Not the server's lease waiters (whose
  // count
  // is lineup_lease_waiters); a shutdown ends them through the draining flag instead.
  private final LeaseWaiters followers = new LeaseWaiters();

  /**
   * @param api what the handlers share (the rooms among it)
   */
  public RoomHandlers(ApiContext api) {
    this.api = api;
  }

  private Room room(Context ctx) {
    String ns = PathNames.namespace(ctx);
    RoomKey key;
    try {
      key = new RoomKey(ns, ctx.pathParam("room"));
    } catch (InvalidArgumentException e) {
      throw new ApiException(ErrorCode.INVALID_NAME, "room", e.reason());
    }
    return api.rooms().room(key);
  }

  private static String ticket(Context ctx) {
    String id = ctx.pathParam("ticket");
    if (!Rooms.isTicketId(id)) {
      throw new ApiException(ErrorCode.INVALID_NAME, "ticket", Rooms.TICKET_ID_RULE);
    }
    return id;
  }

  /** {@code PUT /v1/rooms/{ns}/{room}}: creates (201) or replaces (200) a room. */
  public void put(Context ctx, Principal principal) {
    Room room = room(ctx);
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    boolean created = room.put(RoomRequests.spec(body));
    Responses.json(ctx, created ? 201 : 200, RoomJson.info(room.info().orElseThrow()));
  }

  /**
   * {@code POST /v1/rooms/{ns}/{room}/suspend}: nobody is admitted until it is resumed; answers the
   * room as stored afterwards ({@code suspended: true}).
   */
  public void suspend(Context ctx, Principal principal) {
    Responses.json(ctx, 200, RoomJson.info(room(ctx).setSuspended(true)));
  }

  /**
   * {@code POST /v1/rooms/{ns}/{room}/resume}: the room admits again; answers the room as stored
   * afterwards ({@code suspended: false}).
   */
  public void resume(Context ctx, Principal principal) {
    Responses.json(ctx, 200, RoomJson.info(room(ctx).setSuspended(false)));
  }

  /** Waiting tickets per page when the request names no limit. */
  static final int DEFAULT_TICKET_PAGE = 50;

  /** Most waiting tickets per page. */
  public static final int MAX_TICKET_PAGE = 100;

  /**
   * {@code GET /v1/rooms/{ns}/{room}/tickets?cursor=&limit=}: the tickets waiting in line, in
   * admission order, each as a poll shows it (without counting as one); keyset paging by the line's
   * order, so a page begins right after the previous page's last ticket however the line moved.
   */
  public void waiting(Context ctx, Principal principal) {
    Room room = room(ctx);
    int limit = DeadLetterHandlers.queryInt(ctx, "limit", 1, MAX_TICKET_PAGE, DEFAULT_TICKET_PAGE);
    Double after = lineCursor(ctx.queryParam("cursor"));
    TicketPage page = room.waiting(after, limit);
    StringBuilder json = new StringBuilder("{\"tickets\":[");
    for (int i = 0; i < page.tickets().size(); i++) {
      if (i > 0) {
        json.append(',');
      }
      json.append(new String(TicketJson.write(page.tickets().get(i)), StandardCharsets.UTF_8));
    }
    json.append("],\"next_cursor\":");
    json.append(
        page.nextScore() == null ? "null" : "\"" + Double.toHexString(page.nextScore()) + "\"");
    json.append('}');
    Responses.jsonText(ctx, 200, json.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** A cursor as {@link #waiting} writes it: the line score in hexadecimal floating point. */
  private static Double lineCursor(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      double score = Double.parseDouble(text);
      if (Double.isFinite(score) && (text.startsWith("0x") || text.startsWith("-0x"))) {
        return score;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.invalidField(
        "cursor", "is not a cursor of this list: give the next_cursor of the previous page");
  }

  /** {@code GET /v1/rooms/{ns}/{room}}: settings and counts. */
  public void get(Context ctx, Principal principal) {
    Room room = room(ctx);
    Responses.json(
        ctx,
        200,
        RoomJson.info(room.info().orElseThrow(() -> new RoomNotFoundException(room.key()))));
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}}. */
  public void delete(Context ctx, Principal principal) {
    Room room = room(ctx);
    if (!room.delete()) {
      throw new RoomNotFoundException(room.key());
    }
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/rooms/{ns}/{room}/tickets}: joins the line (201). */
  public void join(Context ctx, Principal principal) {
    Room room = room(ctx);
    room.spec(); // an unknown room is a 404 before the body is read
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), false);
    Responses.jsonText(ctx, 201, TicketJson.write(room.join(RoomRequests.join(body, principal))));
  }

  /**
   * {@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}?wait_ms=}: position and ETA, or the pass.
   * With {@code wait_ms} (0 to {@value TicketFollower#MAX_WAIT_MS}), a long poll: answers when the
   * ticket's status or position changes, else after the wait; 400 for another value.
   */
  public void poll(Context ctx, Principal principal) {
    Room room = room(ctx);
    String ticket = ticket(ctx);
    long waitMs = waitMs(ctx);
    if (waitMs == 0) {
      Responses.jsonText(ctx, 200, TicketJson.write(room.poll(ticket)));
      return;
    }
    Ticket answer;
    try (DisconnectWatch watch = DisconnectWatch.start(ctx, waitMs, followers)) {
      try {
        answer = room.poll(ticket, waitMs);
      } catch (InterruptedException e) {
        return; // The client went away: nobody to answer.
      }
      if (watch.mustCloseConnection()) {
        ctx.header("Connection", "close");
      }
    }
    Responses.jsonText(ctx, 200, TicketJson.write(answer));
  }

  /** The {@code wait_ms} of a ticket's long poll, 0 when absent. */
  private static long waitMs(Context ctx) {
    String wait = ctx.queryParam("wait_ms");
    if (wait == null) {
      return 0;
    }
    long waitMs;
    try {
      waitMs = Long.parseLong(wait);
    } catch (NumberFormatException e) {
      waitMs = -1;
    }
    if (waitMs < 0 || waitMs > TicketFollower.MAX_WAIT_MS) {
      throw ApiException.invalidField(
          "wait_ms", "must be an integer from 0 to " + TicketFollower.MAX_WAIT_MS);
    }
    return waitMs;
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}/tickets/{ticket}}: leaves, or gives the slot back. */
  public void leave(Context ctx, Principal principal) {
    Room room = room(ctx);
    String ticket = ticket(ctx);
    Responses.json(ctx, 200, TicketJson.of(room.leave(ticket)));
  }

  /** {@code POST /v1/rooms/{ns}/{room}/tickets/{ticket}/renew}. */
  public void renew(Context ctx, Principal principal) {
    Room room = room(ctx);
    String ticket = ticket(ctx);
    Responses.jsonText(ctx, 200, TicketJson.write(room.renew(ticket)));
  }

  /** {@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}/events}: Server-Sent Events. */
  public void events(Context ctx, Principal principal) throws Exception {
    Room room = room(ctx);
    String ticket = ticket(ctx);
    Ticket first = room.poll(ticket); // a 404 or 400 before the stream starts
    TicketEventStream.stream(ctx, room, first, api.state().draining(), followers);
  }

  /** {@code GET /v1/rooms/{ns}/{room}/jwks.json}: the room's public keys (no token needed). */
  public void jwks(Context ctx, Principal principal) {
    String jwks = room(ctx).jwks();
    ctx.status(200);
    ctx.contentType("application/jwk-set+json");
    ctx.header("Cache-Control", "max-age=60");
    ctx.result(jwks.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code POST /v1/rooms/{ns}/{room}/keys/rotate}. */
  public void rotate(Context ctx, Principal principal) {
    Responses.json(ctx, 200, RoomJson.rotation(room(ctx).rotateKeys()));
  }

  /** {@code POST /v1/passes/verify}: the online check. */
  public void verify(Context ctx, Principal principal) {
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    RoomRequests.Verification asked = RoomRequests.verification(body);
    if (!principal.covers(asked.room().namespace())) {
      throw ApiException.forbidden(
          "the token may not act in namespace " + asked.room().namespace());
    }
    Responses.json(ctx, 200, RoomJson.verified(api.rooms().verifyPass(asked.room(), asked.pass())));
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}/passes/{jti}}: revokes a pass and frees its slot. */
  public void revoke(Context ctx, Principal principal) {
    room(ctx).revoke(ctx.pathParam("jti"));
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/rooms/{ns}/{room}/grants}: a single-use priority grant (201). */
  public void createGrant(Context ctx, Principal principal) {
    Room room = room(ctx);
    room.spec(); // an unknown room is a 404 before the body is read
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    Responses.json(ctx, 201, RoomJson.grant(room.createGrant(RoomRequests.grant(body, principal))));
  }

  /** {@code GET /v1/rooms/{ns}/{room}/grants}: the grant log. */
  public void grants(Context ctx, Principal principal) {
    Responses.json(ctx, 200, RoomJson.grantLog(room(ctx).grants()));
  }
}
