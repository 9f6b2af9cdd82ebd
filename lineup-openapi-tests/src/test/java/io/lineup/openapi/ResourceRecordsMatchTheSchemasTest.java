package io.lineup.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.lineup.api.resource.DeadPage;
import io.lineup.api.resource.ErrorBody;
import io.lineup.api.resource.FairKey;
import io.lineup.api.resource.FairKeyCounts;
import io.lineup.api.resource.Job;
import io.lineup.api.resource.JobActionResult;
import io.lineup.api.resource.JobListPage;
import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.ListedJob;
import io.lineup.api.resource.PublishResult;
import io.lineup.api.resource.QueueSettings;
import io.lineup.api.resource.QueueStats;
import io.lineup.api.resource.Schedule;
import io.lineup.api.resource.Task;
import io.lineup.api.resource.Ticket;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The records of {@code io.lineup.api.resource} name the same JSON fields as the schemas of the
 * served {@code openapi.json}, both ways, so a field added on one side only fails the build.
 */
class ResourceRecordsMatchTheSchemasTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNode DOCUMENT = document();

  static Stream<Arguments> recordsAndSchemas() {
    JsonNode schemas = DOCUMENT.path("components").path("schemas");
    JsonNode queue = schemas.path("Queue");
    JsonNode schedule = schemas.path("Schedule");
    return Stream.of(
        Arguments.of(Job.class, "Job", schemas.path("Job")),
        Arguments.of(LeasedJob.class, "LeasedJob", schemas.path("LeasedJob")),
        Arguments.of(PublishResult.class, "Published", schemas.path("Published")),
        Arguments.of(QueueStats.class, "Queue", queue),
        Arguments.of(
            QueueStats.Counts.class, "Queue.counts", queue.path("properties").path("counts")),
        Arguments.of(QueueSettings.class, "Settings", schemas.path("Settings")),
        Arguments.of(
            QueueSettings.Backoff.class,
            "Settings.backoff",
            schemas.path("Settings").path("properties").path("backoff")),
        Arguments.of(Task.class, "Task", schemas.path("Task")),
        Arguments.of(
            io.lineup.api.resource.Endpoint.Adaptive.class,
            "EndpointAdaptive",
            schemas.path("EndpointAdaptive")),
        Arguments.of(Schedule.class, "Schedule", schedule),
        Arguments.of(Schedule.Job.class, "Schedule.job", schedule.path("properties").path("job")),
        Arguments.of(
            Schedule.TaskTemplate.class, "Schedule.task", schedule.path("properties").path("task")),
        Arguments.of(
            Schedule.Run.class,
            "Schedule.history",
            schedule.path("properties").path("history").path("items")),
        Arguments.of(Ticket.class, "Ticket", schemas.path("Ticket")),
        Arguments.of(FairKey.class, "FairKey", schemas.path("FairKey")),
        Arguments.of(FairKey.Settings.class, "FairKeySettings", schemas.path("FairKeySettings")),
        Arguments.of(FairKeyCounts.class, "FairKeyCounts", schemas.path("FairKeyCounts")),
        Arguments.of(
            FairKeyCounts.Count.class,
            "FairKeyCounts.keys",
            schemas.path("FairKeyCounts").path("properties").path("keys").path("items")),
        Arguments.of(ListedJob.class, "ListedJob", schemas.path("ListedJob")),
        Arguments.of(JobListPage.class, "JobListPage", schemas.path("JobListPage")),
        Arguments.of(JobActionResult.class, "JobActionResult", schemas.path("JobActionResult")),
        Arguments.of(
            JobActionResult.Skipped.class,
            "JobActionResult.skipped",
            schemas.path("JobActionResult").path("properties").path("skipped").path("items")),
        Arguments.of(ErrorBody.class, "Error", schemas.path("Error")),
        Arguments.of(
            DeadPage.class,
            "GET dead",
            DOCUMENT
                .path("paths")
                .path("/v1/queues/{ns}/{queue}/dead")
                .path("get")
                .path("responses")
                .path("200")
                .path("content")
                .path("application/json")
                .path("schema")));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("recordsAndSchemas")
  void aRecordNamesTheFieldsOfItsSchemaAndNoOthers(Class<?> type, String name, JsonNode schema) {
    Set<String> schemaFields = new LinkedHashSet<>();
    schema.path("properties").fieldNames().forEachRemaining(schemaFields::add);
    assertThat(schemaFields).as("the schema %s has properties", name).isNotEmpty();

    assertThat(propertiesOf(type).stream().map(BeanPropertyDefinition::getName).toList())
        .as("%s against the schema %s", type.getSimpleName(), name)
        .containsExactlyInAnyOrderElementsOf(schemaFields);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("recordsAndSchemas")
  void aRecordAlwaysWritesTheFieldsItsSchemaRequires(Class<?> type, String name, JsonNode schema) {
    Set<String> omittable = new LinkedHashSet<>();
    for (BeanPropertyDefinition property : propertiesOf(type)) {
      JsonInclude include = property.getAccessor().getAnnotation(JsonInclude.class);
      if (include == null) {
        include = type.getAnnotation(JsonInclude.class);
      }
      if (include != null && include.value() != JsonInclude.Include.ALWAYS) {
        omittable.add(property.getName());
      }
    }
    schema
        .path("required")
        .forEach(required -> assertThat(omittable).doesNotContain(required.asText()));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("recordsAndSchemas")
  void aRecordWritesItsFieldsInTheOrderItNames(Class<?> type, String name, JsonNode schema) {
    JsonPropertyOrder order = type.getAnnotation(JsonPropertyOrder.class);
    assertThat(order).as("%s names its order", type.getSimpleName()).isNotNull();
    assertThat(order.value())
        .containsExactlyInAnyOrderElementsOf(
            propertiesOf(type).stream().map(BeanPropertyDefinition::getName).toList());
  }

  private static List<BeanPropertyDefinition> propertiesOf(Class<?> type) {
    return MAPPER.getSerializationConfig().introspect(MAPPER.constructType(type)).findProperties();
  }

  private static JsonNode document() {
    try (InputStream in =
        ResourceRecordsMatchTheSchemasTest.class.getResourceAsStream(
            "/io/lineup/server/openapi.json")) {
      return MAPPER.readTree(in);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
