package io.lineup.server.room;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.server.http.Draining;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A ticket's Server-Sent Events: {@code event: ticket} with the ticket's view (as {@code GET
 * .../tickets/{id}} answers it) each time its status, position or ETA changes, and a last one when
 * it is admitted (with the pass) or gone, after which the stream ends. A stream also ends after
 * {@value #MAX_STREAM_MS} ms (the client reconnects) or when the server shuts down.
 */
public final class TicketEvents {
  /** How often a stream reads its ticket when no admission on this instance wakes it, in ms. */
  public static final long CHECK_INTERVAL_MS = 20;

  /** A comment line keeps idle connections open through proxies this often, in ms. */
  public static final long KEEP_ALIVE_MS = 15_000;

  /** Longest stream, in ms: 1 hour. */
  public static final long MAX_STREAM_MS = 3_600_000;

  /** How often a stream counts as a poll of its ticket (keeping its place), in ms. */
  static final long TOUCH_INTERVAL_MS = 1_000;

  private TicketEvents() {}

  /**
   * Streams the ticket's changes on the response until it is admitted or gone.
   *
   * @param first the ticket's view at the start, sent at once
   */
  public static void stream(
      Context ctx,
      RoomService rooms,
      RoomKey key,
      String ticket,
      ObjectNode first,
      Draining draining)
      throws InterruptedException {
    var res = ctx.res();
    res.setStatus(200);
    res.setContentType("text/event-stream");
    res.setCharacterEncoding("UTF-8");
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Accel-Buffering", "no");
    long start = System.currentTimeMillis();
    long lastSent = start;
    long lastTouch = start;
    rooms.watch(ticket);
    try {
      OutputStream out = res.getOutputStream();
      String sent = signature(first);
      send(out, first);
      if (isFinal(first)) {
        return;
      }
      while (!draining.isOn()) {
        long now = System.currentTimeMillis();
        if (now - start > MAX_STREAM_MS) {
          return;
        }
        rooms.awaitChange(ticket, CHECK_INTERVAL_MS);
        now = System.currentTimeMillis();
        ObjectNode view;
        if (now - lastTouch >= TOUCH_INTERVAL_MS) {
          view = rooms.poll(key, ticket);
          lastTouch = now;
        } else {
          view = rooms.ticketView(key, rooms.spec(key), ticket, now);
        }
        String sig = signature(view);
        if (!sig.equals(sent)) {
          send(out, view);
          sent = sig;
          lastSent = now;
          if (isFinal(view)) {
            return;
          }
        } else if (now - lastSent >= KEEP_ALIVE_MS) {
          out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
          lastSent = now;
        }
      }
    } catch (IOException e) {
      // The client went away: nothing to answer.
    } finally {
      rooms.unwatch(ticket);
    }
  }

  private static boolean isFinal(ObjectNode view) {
    String status = view.path("status").asText();
    return status.equals("admitted") || status.equals("gone");
  }

  /** What a change is: the fields a page shows, without the suggested poll interval. */
  private static String signature(ObjectNode view) {
    return view.path("status").asText()
        + "|"
        + view.path("position").asText()
        + "|"
        + view.path("eta_ms").asText();
  }

  private static void send(OutputStream out, ObjectNode view) throws IOException {
    String event = "event: ticket\ndata: " + view + "\n\n";
    out.write(event.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
