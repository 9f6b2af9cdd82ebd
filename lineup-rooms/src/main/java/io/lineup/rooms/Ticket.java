package io.lineup.rooms;

import io.lineup.core.model.Eta;
import java.time.Duration;

/**
 * A ticket as it stands. Which fields are set depends on its status: waiting ones have a position,
 * an ETA (or none yet), a suggested poll interval and the grace; pre-queue ones the opening time,
 * poll interval and grace; admitted ones the pass, and position 0, an ETA of zero, the poll
 * interval and the grace as a waiting one at the front; gone ones the reason.
 *
 * @param id the ticket id
 * @param room the room
 * @param status where it stands
 * @param priority its priority, or null when not known (pre-queue, and gone before it was read)
 * @param joinedAt when it joined, epoch ms, or null alongside a null priority
 * @param position its place in line (0 = next) when waiting, 0 when admitted, else -1
 * @param eta its estimated wait when waiting and the room has an estimate, zero when admitted, else
 *     null
 * @param pollAfterMs when to poll again, in ms (waiting, pre-queue and admitted), else 0
 * @param graceMs how long it keeps its place without a poll, in ms (waiting, pre-queue and
 *     admitted), else 0
 * @param opensAt when the room's event starts, epoch ms (pre-queue), else 0
 * @param pass its pass when admitted, else null
 * @param reason why it is gone when gone, else null
 */
public record Ticket(
    String id,
    RoomKey room,
    TicketStatus status,
    Integer priority,
    Long joinedAt,
    long position,
    Eta eta,
    long pollAfterMs,
    long graceMs,
    long opensAt,
    AdmittedPass pass,
    GoneReason reason) {

  /** A waiting ticket. */
  static Ticket waiting(
      String id,
      RoomKey room,
      int priority,
      long joinedAt,
      long position,
      Eta eta,
      long pollAfterMs,
      long graceMs) {
    return new Ticket(
        id,
        room,
        TicketStatus.WAITING,
        priority,
        joinedAt,
        position,
        eta,
        pollAfterMs,
        graceMs,
        0,
        null,
        null);
  }

  /** A ticket held before the event start. */
  static Ticket preQueue(String id, RoomKey room, long opensAt, long pollAfterMs, long graceMs) {
    return new Ticket(
        id,
        room,
        TicketStatus.PRE_QUEUE,
        null,
        null,
        -1,
        null,
        pollAfterMs,
        graceMs,
        opensAt,
        null,
        null);
  }

  /** A wait of zero: what an admitted ticket has left to wait. */
  static final Eta NO_WAIT = new Eta(Duration.ZERO, Duration.ZERO, Duration.ZERO);

  /**
   * An admitted ticket: at the front (position 0, no wait left), with the poll interval and grace a
   * waiting ticket's answer has, since a ticket whose pass nobody fetched within the grace is
   * dropped.
   */
  static Ticket admitted(
      String id,
      RoomKey room,
      int priority,
      long joinedAt,
      AdmittedPass pass,
      long pollAfterMs,
      long graceMs) {
    return new Ticket(
        id,
        room,
        TicketStatus.ADMITTED,
        priority,
        joinedAt,
        0,
        NO_WAIT,
        pollAfterMs,
        graceMs,
        0,
        pass,
        null);
  }

  /** A gone ticket; priority and joinedAt null when the engine no longer knows it. */
  static Ticket gone(String id, RoomKey room, Integer priority, Long joinedAt, GoneReason reason) {
    return new Ticket(
        id, room, TicketStatus.GONE, priority, joinedAt, -1, null, 0, 0, 0, null, reason);
  }
}
