package io.lineup.server.http;

import io.lineup.api.ErrorCode;
import io.lineup.pass.PassRejectedException;
import io.lineup.rooms.GrantRefusedException;
import io.lineup.rooms.MalformedIdException;
import io.lineup.rooms.NotRenewableException;
import io.lineup.rooms.PassNotFoundException;
import io.lineup.rooms.PassRefusedException;
import io.lineup.rooms.PriorityNotAllowedException;
import io.lineup.rooms.RoomException;
import io.lineup.rooms.RoomFullException;
import io.lineup.rooms.RoomNotFoundException;
import io.lineup.rooms.TicketNotFoundException;
import java.util.Locale;

/** The HTTP answers of the waiting rooms' errors, by type ({@link ErrorMapper} asks here). */
final class RoomErrors {
  private RoomErrors() {}

  /** The API error a room error stands for. */
  static ApiException toApiException(RoomException error) {
    String message = error.getMessage();
    return switch (error) {
      case RoomNotFoundException e -> new ApiException(ErrorCode.ROOM_NOT_FOUND, null, message);
      case TicketNotFoundException e -> ApiException.notFound(message);
      case PassNotFoundException e -> ApiException.notFound(message);
      case MalformedIdException e -> new ApiException(ErrorCode.INVALID_NAME, e.field(), message);
      case RoomFullException e ->
          new ApiException(ErrorCode.ROOM_FULL, null, message).with("active", e.active());
      case PriorityNotAllowedException e ->
          new ApiException(ErrorCode.PRIORITY_NOT_ALLOWED, "priority", message)
              .with("max_priority", e.maxPriority());
      case GrantRefusedException e -> new ApiException(ErrorCode.GRANT_REFUSED, e.field(), message);
      case NotRenewableException e -> new ApiException(ErrorCode.NOT_RENEWABLE, null, message);
      case PassRefusedException e -> passRefused(e);
    };
  }

  private static ApiException passRefused(PassRefusedException e) {
    String reason = e.reason().name().toLowerCase(Locale.ROOT);
    if (e.reason() == PassRejectedException.Reason.MALFORMED) {
      return ApiException.invalidField("pass", "not a pass: " + e.getMessage())
          .with("reason", reason);
    }
    return new ApiException(ErrorCode.PASS_REJECTED, "pass", e.getMessage()).with("reason", reason);
  }
}
