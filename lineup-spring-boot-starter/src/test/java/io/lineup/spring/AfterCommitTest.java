package io.lineup.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.Lineup;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Inside a real (H2) transaction the publish waits for the commit, and a rollback drops it. */
class AfterCommitTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(LineupAutoConfiguration.class))
          .withUserConfiguration(Transactions.class)
          .withPropertyValues("lineup.redis.url=" + redis.uri());

  @Configuration(proxyBeanMethods = false)
  static class Transactions {
    @Bean
    DataSource dataSource() {
      JdbcDataSource h2 = new JdbcDataSource();
      h2.setURL("jdbc:h2:mem:" + RedisServerExtension.uniqueName("orders") + ";DB_CLOSE_DELAY=-1");
      return h2;
    }

    @Bean
    PlatformTransactionManager transactionManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    TransactionTemplate transactionTemplate(PlatformTransactionManager manager) {
      return new TransactionTemplate(manager);
    }
  }

  @Test
  void aPublishInsideATransactionHappensOnlyAfterTheCommit() {
    runner.run(context -> {
      Lineup lineup = context.getBean(Lineup.class);
      LineupPublisher publisher = context.getBean(LineupPublisher.class);
      QueueName queue = QueueName.parse(RedisServerExtension.uniqueName("tx") + "/close");

      PublishReceipt receipt =
          context
              .getBean(TransactionTemplate.class)
              .execute(status -> {
                PublishReceipt inside =
                    publisher.publish(
                        queue.toString(), "order 1", PublishOptions.defaults().withId("order-1"));
                assertThat(lineup.exists(queue, "order-1")).as("before commit").isFalse();
                return inside;
              });

      assertThat(receipt.deferred()).isTrue();
      assertThat(receipt.id()).isEqualTo("order-1");
      assertThat(lineup.exists(queue, "order-1")).as("after commit").isTrue();
    });
  }

  @Test
  void aRolledBackTransactionPublishesNothing() {
    runner.run(context -> {
      Lineup lineup = context.getBean(Lineup.class);
      LineupPublisher publisher = context.getBean(LineupPublisher.class);
      QueueName queue = QueueName.parse(RedisServerExtension.uniqueName("tx") + "/close");

      assertThatThrownBy(() ->
              context
                  .getBean(TransactionTemplate.class)
                  .executeWithoutResult(status -> {
                    publisher.publish(
                        queue.toString(), "order 2", PublishOptions.defaults().withId("order-2"));
                    throw new IllegalStateException("card declined");
                  }))
          .hasMessage("card declined");

      assertThat(lineup.exists(queue, "order-2")).isFalse();
    });
  }

  @Test
  void aMalformedQueueFailsInTheCallerNotAfterTheCommit() {
    runner.run(context ->
        assertThatThrownBy(() ->
                context
                    .getBean(TransactionTemplate.class)
                    .executeWithoutResult(
                        status -> context.getBean(LineupPublisher.class).publish("bad", "x")))
            .isInstanceOf(IllegalArgumentException.class));
  }

  @Test
  void withAfterCommitOffAPublishInsideATransactionHappensAtOnce() {
    runner
        .withPropertyValues("lineup.publish.after-commit=false")
        .run(context -> {
          Lineup lineup = context.getBean(Lineup.class);
          LineupPublisher publisher = context.getBean(LineupPublisher.class);
          QueueName queue = QueueName.parse(RedisServerExtension.uniqueName("tx") + "/close");

          context
              .getBean(TransactionTemplate.class)
              .executeWithoutResult(status -> {
                PublishReceipt receipt =
                    publisher.publish(
                        queue.toString(), "order 3", PublishOptions.defaults().withId("order-3"));
                assertThat(receipt.deferred()).isFalse();
                assertThat(lineup.exists(queue, "order-3")).isTrue();
                status.setRollbackOnly();
              });

          assertThat(lineup.exists(queue, "order-3")).as("not undone by rollback").isTrue();
        });
  }

  @Test
  void aPublishThatFailsAfterTheCommitIsThrownToTheCodeThatCommitted() {
    runner
        .withBean(LineupBackend.class, UnreachableBackend::new)
        .run(context ->
            assertThatThrownBy(() ->
                    context
                        .getBean(TransactionTemplate.class)
                        .executeWithoutResult(status ->
                            context
                                .getBean(LineupPublisher.class)
                                .publish("shop/close", "order 4")))
                .hasMessage("Redis is down"));
  }

  /** A backend whose publishes fail, as when Redis goes away between the call and the commit. */
  static final class UnreachableBackend implements LineupBackend {
    @Override
    public String mode() {
      return "embedded";
    }

    @Override
    public PublishReceipt publish(String queue, byte[] payload, PublishOptions options) {
      throw new IllegalStateException("Redis is down");
    }

    @Override
    public RunningWorker startWorker(
        String queue, io.lineup.consumer.WorkerOptions options, JobInvocation handler) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void upsertSchedule(
        String queue, String name, String cron, java.time.ZoneId zone, byte[] payload) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String problem() {
      return "Redis is down";
    }
  }

  @Test
  void outsideATransactionAPublishHappensAtOnce() {
    runner.run(context -> {
      QueueName queue = QueueName.parse(RedisServerExtension.uniqueName("tx") + "/close");
      PublishReceipt receipt =
          context
              .getBean(LineupPublisher.class)
              .publish(queue.toString(), "x", PublishOptions.defaults().withId("now-1"));
      assertThat(receipt.deferred()).isFalse();
      assertThat(context.getBean(Lineup.class).exists(queue, "now-1")).isTrue();
    });
  }
}
