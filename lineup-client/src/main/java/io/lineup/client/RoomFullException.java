package io.lineup.client;

/** 409 {@code room_full}: a room of method {@code reject} is full, or someone waits; try later. */
public class RoomFullException extends LineupClientException {
  RoomFullException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
