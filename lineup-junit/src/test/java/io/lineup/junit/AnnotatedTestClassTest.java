package io.lineup.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.resource.DeadJob;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.LeasedJob;
import io.lineup.client.ForbiddenException;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A test class as a user writes one: {@code @LineupTest} and injected parameters. */
@LineupTest(
    namespace = "shop",
    scopes = {"publish", "consume"})
class AnnotatedTestClassTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static LineupTestServer seenBeforeAll;

  @BeforeAll
  static void remember(LineupTestServer lineup) {
    seenBeforeAll = lineup;
  }

  @Test
  void theInjectedClientActsInTheAnnotationsNamespaceWithItsScopes(
      LineupClient client, LineupTestServer lineup) {
    assertThat(lineup.namespace()).isEqualTo("shop");
    assertThat(client).as("the handle's client").isSameAs(lineup.client());
    assertThat(lineup.baseUrl()).as("the class's one server").isEqualTo(seenBeforeAll.baseUrl());
    QueueName orders = lineup.queue("orders");

    assertThat(client.publish(orders, NewJob.ofJson("{\"n\": 1}").id("order-1")).created())
        .isTrue();
    assertThatThrownBy(() -> client.pause(orders))
        .as("the token has no manage scope")
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> client.publish(QueueName.of("other", "orders"), NewJob.ofJson("1")))
        .as("nor any other namespace")
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aQueueWhoseJobsWereAckedIsIdleAndHasNoDeadLetters(
      LineupClient client, LineupTestServer lineup) {
    QueueName mails = lineup.queue("mails");
    client.publish(mails, NewJob.ofJson("{\"to\": \"a@example.com\"}").id("mail-1"));
    List<LeasedJob> leased = client.lease(mails, 1, WAIT);
    assertThat(leased).hasSize(1);
    client.ack(leased.get(0), "{\"sent\": true}");

    lineup.awaitIdle("mails");
    lineup.assertNoDeadLetters(mails);
    assertThat(lineup.job("mails", "mail-1").state()).isEqualTo(JobState.DONE);
    assertThat(lineup.counts(mails).finished()).isEqualTo(1);
  }

  @Test
  void aJobOutOfAttemptsIsListedAmongTheDeadLettersWithItsLastError(
      LineupClient client, LineupTestServer lineup) {
    QueueName invoices = lineup.queue("invoices");
    client.publish(invoices, NewJob.ofJson("{\"invoice\": 7}").id("invoice-7").maxAttempts(1));
    LeasedJob job = client.lease(invoices, 1, WAIT).get(0);
    client.nack(job, "the printer is on fire", null);

    lineup.awaitIdle(invoices);
    List<DeadJob> dead = lineup.deadLetters(invoices);
    assertThat(dead)
        .singleElement()
        .satisfies(letter -> {
          assertThat(letter.id()).isEqualTo("invoice-7");
          assertThat(letter.lastError()).isEqualTo("the printer is on fire");
          assertThat(letter.payloadText()).isEqualTo("{\"invoice\":7}");
        });
  }

  @Test
  void aQueueNeverUsedIsIdleAndHasNoDeadLetters(LineupTestServer lineup) {
    lineup.awaitIdle("never-used");
    assertThat(lineup.deadLetters("never-used")).isEmpty();
    assertThat(lineup.counts("never-used").ready()).isZero();
  }

  @Test
  void aTokenIssuedWithFewerScopesIsRefusedWhatItsScopesLeaveOut(LineupTestServer lineup) {
    QueueName reports = lineup.queue("reports");
    String readOnly = lineup.issueToken(0, "read");

    try (LineupClient reader = LineupClient.connect(lineup.baseUrl(), readOnly)) {
      assertThatThrownBy(() -> reader.publish(reports, NewJob.ofJson("{}")))
          .isInstanceOf(ForbiddenException.class);
    }
  }

  @Test
  void theAdminTokenManagesTheServer(LineupTestServer lineup) {
    try (LineupClient admin = LineupClient.connect(lineup.baseUrl(), lineup.adminToken())) {
      assertThat(admin.admin().namespaces())
          .extracting(io.lineup.client.Namespace::name)
          .contains("shop");
    }
  }
}
