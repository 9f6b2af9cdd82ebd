package io.lineup.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.lineup.api.resource.Ticket;
import io.lineup.api.resource.TicketStatus;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON view of each ticket status ({@link Ticket#fieldsOf}) writes fields of the {@code Ticket}
 * schema of {@code openapi.json} only, and an admitted ticket every field a waiting one has.
 */
class TicketViewsMatchTheSchemaTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  /** A ticket with every field set, written as the server writes one of this status. */
  static List<String> fieldsWritten(TicketStatus status) throws IOException {
    Ticket full =
        new Ticket(
            "t" + "A".repeat(22),
            "ns/room",
            5,
            1L,
            status,
            0L,
            0L,
            0L,
            0L,
            2L,
            1_000L,
            30_000L,
            "pass",
            "pass-id",
            3L,
            4L,
            false,
            "revoked");
    JsonNode written =
        MAPPER.readTree(MAPPER.writerWithView(Ticket.fieldsOf(status)).writeValueAsBytes(full));
    List<String> names = new ArrayList<>();
    written.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void everyStatusWritesOnlyFieldsTheSchemaNamesAndAllItRequires() throws IOException {
    JsonNode schema = schema();
    List<String> properties = new ArrayList<>();
    schema.path("properties").fieldNames().forEachRemaining(properties::add);
    List<String> required = new ArrayList<>();
    schema.path("required").forEach(r -> required.add(r.asText()));
    for (TicketStatus status : TicketStatus.values()) {
      assertThat(fieldsWritten(status))
          .as("%s", status)
          .isSubsetOf(properties)
          .containsAll(required);
    }
  }

  @Test
  void anAdmittedTicketWritesEveryFieldOfAWaitingOneAndItsPass() throws IOException {
    assertThat(fieldsWritten(TicketStatus.ADMITTED))
        .containsAll(fieldsWritten(TicketStatus.WAITING))
        .contains("pass", "pass_id", "admitted_at", "pass_expires_at", "renewable")
        .doesNotContain("reason", "opens_at");
  }

  @Test
  void theSchemaNamesEveryGoneReasonTheServerWrites() {
    List<String> reasons = new ArrayList<>();
    schema().path("properties").path("reason").path("enum").forEach(r -> reasons.add(r.asText()));
    assertThat(reasons).contains("left", "released", "expired", "abandoned", "revoked");
  }

  private static JsonNode schema() {
    try (InputStream in =
        TicketViewsMatchTheSchemaTest.class.getResourceAsStream("/io/lineup/server/openapi.json")) {
      return MAPPER.readTree(in).path("components").path("schemas").path("Ticket");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
