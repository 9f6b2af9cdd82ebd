package io.lineup.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {
  @Test
  void aNameOfLettersDigitsUnderscoresDotsAndDashesIsANameUpToSixtyFourCharacters() {
    assertThat(Names.isName("shop.close-unpaid_2")).isTrue();
    assertThat(Names.isName("a".repeat(64))).isTrue();
    assertThat(Names.problem("a".repeat(64), Names.MAX_LENGTH)).isNull();
  }

  @Test
  void anEmptyOrMissingNameIsRefused() {
    assertThat(Names.problem("", Names.MAX_LENGTH)).isEqualTo("must not be empty");
    assertThat(Names.problem(null, Names.MAX_LENGTH)).isEqualTo("must not be empty");
    assertThat(Names.isName(null)).isFalse();
  }

  @Test
  void aNameOverItsLengthIsRefusedWithItsLength() {
    assertThat(Names.problem("a".repeat(65), Names.MAX_LENGTH))
        .isEqualTo("must be at most 64 characters, got 65");
    assertThat(Names.problem("a".repeat(56), Names.MAX_ENDPOINT_LENGTH))
        .isEqualTo("must be at most 55 characters, got 56");
  }

  @Test
  void aNameWithAnotherCharacterIsRefused() {
    for (String name : new String[] {"a b", "a/b", "a:b", "é", "a~b", "a%2F"}) {
      assertThat(Names.problem(name, Names.MAX_LENGTH))
          .as(name)
          .isEqualTo("may only contain A-Z a-z 0-9 _ . - but was '" + name + "'");
    }
  }

  @Test
  void aNameMadeOnlyOfDotsIsRefusedButDotsAmongOtherCharactersAreNot() {
    assertThat(Names.problem(".", Names.MAX_LENGTH))
        .isEqualTo("must not be made only of dots (. and .. are path segments), got '.'");
    assertThat(Names.isName("..")).isFalse();
    assertThat(Names.isName("...")).isFalse();
    assertThat(Names.isName(".a.")).isTrue();
  }

  @Test
  void endpointAndRoomNamesLeaveRoomForTheirQueuesPrefix() {
    assertThat(Names.MAX_ENDPOINT_LENGTH + Names.ENDPOINT_QUEUE_PREFIX.length())
        .isEqualTo(Names.MAX_LENGTH);
    assertThat(Names.MAX_ENDPOINT_LENGTH).isEqualTo(55);
    assertThat(Names.MAX_ROOM_LENGTH + Names.ROOM_QUEUE_PREFIX.length())
        .isEqualTo(Names.MAX_LENGTH);
    assertThat(Names.MAX_ROOM_LENGTH).isEqualTo(59);
  }

  @Test
  void aScheduleNameTakesColonsAndUpTo128Characters() {
    assertThat(Names.scheduleProblem("report:nightly-v2.1")).isNull();
    assertThat(Names.scheduleProblem("x".repeat(128))).isNull();
    assertThat(Names.scheduleProblem("x".repeat(129)))
        .isEqualTo("must be at most 128 characters, got 129");
    assertThat(Names.scheduleProblem("a b")).startsWith("may only contain A-Z a-z 0-9 _ . - :");
    assertThat(Names.scheduleProblem("..")).startsWith("must not be made only of dots");
    assertThat(Names.scheduleProblem("")).isEqualTo("must not be empty");
    assertThat(Names.scheduleProblem(null)).isEqualTo("must not be empty");
  }
}
