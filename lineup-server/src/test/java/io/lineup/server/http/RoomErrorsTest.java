package io.lineup.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.api.ErrorCode;
import io.lineup.pass.PassRejectedException;
import io.lineup.rooms.GrantRefusedException;
import io.lineup.rooms.MalformedIdException;
import io.lineup.rooms.NotRenewableException;
import io.lineup.rooms.PassNotFoundException;
import io.lineup.rooms.PassRefusedException;
import io.lineup.rooms.PriorityNotAllowedException;
import io.lineup.rooms.RoomFullException;
import io.lineup.rooms.RoomKey;
import io.lineup.rooms.RoomNotFoundException;
import io.lineup.rooms.TicketNotFoundException;
import org.junit.jupiter.api.Test;

/** The waiting rooms' errors become the HTTP answers the room routes give, by their type. */
class RoomErrorsTest {
  static final RoomKey ROOM = new RoomKey("shop", "checkout");

  static ApiException answer(RuntimeException error) {
    return ErrorMapper.toApiException(error);
  }

  @Test
  void unknownRoomsTicketsAndPassesAre404WithTheirMessage() {
    ApiException room = answer(new RoomNotFoundException(ROOM));
    assertThat(room.status()).isEqualTo(404);
    assertThat(room.code()).isEqualTo(ErrorCode.ROOM_NOT_FOUND);
    assertThat(answer(new TicketNotFoundException(ROOM, "tX")).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(room.getMessage()).isEqualTo("no room checkout in namespace shop");
    assertThat(answer(new TicketNotFoundException(ROOM, "tX")).getMessage())
        .isEqualTo("no ticket tX in room shop/checkout");
    assertThat(answer(new PassNotFoundException(ROOM, "tX.1")).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
  }

  @Test
  void refusalsKeepTheirCodesFieldsAndDetails() {
    ApiException full = answer(new RoomFullException(3));
    assertThat(full.code()).isEqualTo(ErrorCode.ROOM_FULL);
    assertThat(full.extra()).containsEntry("active", 3L);

    ApiException priority = answer(new PriorityNotAllowedException(9, 5, "token"));
    assertThat(priority.code()).isEqualTo(ErrorCode.PRIORITY_NOT_ALLOWED);
    assertThat(priority.field()).isEqualTo("priority");
    assertThat(priority.getMessage()).isEqualTo("priority 9 is above the token's 5");
    assertThat(priority.extra()).containsEntry("max_priority", 5);

    ApiException grant = answer(new GrantRefusedException("subject", "for another subject"));
    assertThat(grant.code()).isEqualTo(ErrorCode.GRANT_REFUSED);
    assertThat(grant.field()).isEqualTo("subject");

    assertThat(answer(new NotRenewableException("no")).code()).isEqualTo(ErrorCode.NOT_RENEWABLE);
    ApiException malformed = answer(new MalformedIdException("jti", "a pass id is ..."));
    assertThat(malformed.code()).isEqualTo(ErrorCode.INVALID_NAME);
    assertThat(malformed.field()).isEqualTo("jti");
  }

  @Test
  void aRefusedPassIs403WithTheReasonAndAMalformedOneIs400() {
    ApiException revoked =
        answer(new PassRefusedException(PassRejectedException.Reason.REVOKED, "revoked"));
    assertThat(revoked.code()).isEqualTo(ErrorCode.PASS_REJECTED);
    assertThat(revoked.field()).isEqualTo("pass");
    assertThat(revoked.extra()).containsEntry("reason", "revoked");

    ApiException malformed =
        answer(new PassRefusedException(PassRejectedException.Reason.MALFORMED, "garbage"));
    assertThat(malformed.code()).isEqualTo(ErrorCode.INVALID_FIELD);
    assertThat(malformed.getMessage()).isEqualTo("not a pass: garbage");
    assertThat(malformed.extra()).containsEntry("reason", "malformed");
  }
}
