package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.RequestBody;
import io.lineup.server.room.RoomKey;
import io.lineup.server.room.RoomService;
import io.lineup.server.room.RoomSpec;
import io.lineup.server.room.TicketEvents;
import java.nio.charset.StandardCharsets;

/** Waiting rooms: rooms, tickets, passes, keys and grants. */
public final class RoomHandlers {
  private final ApiContext api;

  public RoomHandlers(ApiContext api) {
    this.api = api;
  }

  private RoomService rooms() {
    return api.rooms();
  }

  private static RoomKey room(Context ctx) {
    String ns = PathNames.namespace(ctx);
    try {
      return new RoomKey(ns, ctx.pathParam("room"));
    } catch (InvalidArgumentException e) {
      throw new ApiException(ErrorCode.INVALID_NAME, "room", e.reason());
    }
  }

  private static String ticket(Context ctx) {
    String id = ctx.pathParam("ticket");
    if (!RoomService.isTicketId(id)) {
      throw new ApiException(ErrorCode.INVALID_NAME, "ticket", RoomService.TICKET_ID_RULE);
    }
    return id;
  }

  /** {@code PUT /v1/rooms/{ns}/{room}}: creates (201) or replaces (200) a room. */
  public void put(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    RoomSpec spec = RoomSpec.parse(RequestBody.read(ctx, api.limits().maxBodyBytes(), true));
    boolean created = rooms().putRoom(key, spec);
    Responses.json(ctx, created ? 201 : 200, rooms().room(key).orElseThrow());
  }

  /** {@code GET /v1/rooms/{ns}/{room}}: settings and counts. */
  public void get(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    Responses.json(
        ctx,
        200,
        rooms()
            .room(key)
            .orElseThrow(() ->
                ApiException.notFound(
                    "no room " + key.name() + " in namespace " + key.namespace())));
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}}. */
  public void delete(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    if (!rooms().deleteRoom(key)) {
      throw ApiException.notFound("no room " + key.name() + " in namespace " + key.namespace());
    }
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/rooms/{ns}/{room}/tickets}: joins the line (201). */
  public void join(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    rooms().spec(key); // an unknown room is a 404 before the body is read
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), false);
    Responses.json(ctx, 201, rooms().join(key, body, principal));
  }

  /** {@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}}: position and ETA, or the pass. */
  public void poll(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    String ticket = ticket(ctx);
    Responses.json(ctx, 200, rooms().poll(key, ticket));
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}/tickets/{ticket}}: leaves, or gives the slot back. */
  public void leave(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    String ticket = ticket(ctx);
    Responses.json(ctx, 200, rooms().leave(key, ticket));
  }

  /** {@code POST /v1/rooms/{ns}/{room}/tickets/{ticket}/renew}. */
  public void renew(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    String ticket = ticket(ctx);
    Responses.json(ctx, 200, rooms().renew(key, ticket));
  }

  /** {@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}/events}: Server-Sent Events. */
  public void events(Context ctx, Principal principal) throws Exception {
    RoomKey key = room(ctx);
    String ticket = ticket(ctx);
    ObjectNode first = rooms().poll(key, ticket); // a 404 or 400 before the stream starts
    TicketEvents.stream(ctx, rooms(), key, ticket, first, api.state().draining());
  }

  /** {@code GET /v1/rooms/{ns}/{room}/jwks.json}: the room's public keys (no token needed). */
  public void jwks(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    String jwks = rooms().jwks(key);
    ctx.status(200);
    ctx.contentType("application/jwk-set+json");
    ctx.header("Cache-Control", "max-age=60");
    ctx.result(jwks.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code POST /v1/rooms/{ns}/{room}/keys/rotate}. */
  public void rotate(Context ctx, Principal principal) {
    Responses.json(ctx, 200, rooms().rotateKey(room(ctx)));
  }

  /** {@code POST /v1/passes/verify}: the online check. */
  public void verify(Context ctx, Principal principal) {
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    Responses.json(ctx, 200, rooms().verify(body, principal));
  }

  /** {@code DELETE /v1/rooms/{ns}/{room}/passes/{jti}}: revokes a pass and frees its slot. */
  public void revoke(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    rooms().revoke(key, ctx.pathParam("jti"));
    Responses.noContent(ctx);
  }

  /** {@code POST /v1/rooms/{ns}/{room}/grants}: a single-use priority grant (201). */
  public void createGrant(Context ctx, Principal principal) {
    RoomKey key = room(ctx);
    rooms().spec(key);
    JsonNode body = RequestBody.read(ctx, api.limits().maxBodyBytes(), true);
    Responses.json(ctx, 201, rooms().createGrant(key, body, principal));
  }

  /** {@code GET /v1/rooms/{ns}/{room}/grants}: the grant log. */
  public void grants(Context ctx, Principal principal) {
    Responses.json(ctx, 200, rooms().grantLog(room(ctx)));
  }
}
