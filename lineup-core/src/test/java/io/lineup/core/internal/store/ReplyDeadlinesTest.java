package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The one-thread timeout of replies. It involves no Redis: what it watches are plain futures; the
 * engine's tests cover it with a real Redis that does not answer in time ({@code ReplyTimeoutTest},
 * {@code CombinedCallsTest}).
 */
class ReplyDeadlinesTest {

  @Test
  void aReplyWithoutAnAnswerIsFailedAsOverdueSoonAfterItsTimeout() {
    try (ReplyDeadlines deadlines = new ReplyDeadlines(Duration.ofMillis(100))) {
      CompletableFuture<String> reply = new CompletableFuture<>();
      long start = System.nanoTime();
      deadlines.watch(reply);

      await().atMost(Duration.ofSeconds(2)).until(reply::isDone);

      long waitedMillis = (System.nanoTime() - start) / 1_000_000;
      assertThat(waitedMillis).isGreaterThanOrEqualTo(100);
      assertThatThrownBy(reply::join).hasCauseInstanceOf(ReplyDeadlines.Overdue.class);
    }
  }

  @Test
  void answeredRepliesAreDroppedAndKeepTheirAnswers() {
    try (ReplyDeadlines deadlines = new ReplyDeadlines(Duration.ofHours(1))) {
      List<CompletableFuture<Integer>> replies = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        CompletableFuture<Integer> reply = new CompletableFuture<>();
        deadlines.watch(reply);
        replies.add(reply);
      }
      for (int i = 0; i < replies.size(); i++) {
        replies.get(i).complete(i);
      }

      await().atMost(Duration.ofSeconds(2)).until(() -> deadlines.size() == 0);
      for (int i = 0; i < replies.size(); i++) {
        assertThat(replies.get(i).join()).isEqualTo(i);
      }
    }
  }

  @Test
  void anUnansweredReplyStopsTheSweepSoLaterAnswersWaitBehindIt() {
    try (ReplyDeadlines deadlines = new ReplyDeadlines(Duration.ofHours(1))) {
      CompletableFuture<String> slow = new CompletableFuture<>();
      CompletableFuture<String> quick = new CompletableFuture<>();
      deadlines.watch(slow);
      deadlines.watch(quick);
      quick.complete("answered");

      await()
          .during(Duration.ofMillis(50))
          .atMost(Duration.ofSeconds(1))
          .until(() -> deadlines.size() == 2);
      slow.complete("answered too");
      await().atMost(Duration.ofSeconds(2)).until(() -> deadlines.size() == 0);
      assertThat(slow).isCompletedWithValue("answered too");
    }
  }

  @Test
  void closingFailsTheRepliesStillWatchedAndAnyWatchedAfter() {
    ReplyDeadlines deadlines = new ReplyDeadlines(Duration.ofHours(1));
    CompletableFuture<String> before = new CompletableFuture<>();
    deadlines.watch(before);

    deadlines.close();
    CompletableFuture<String> after = new CompletableFuture<>();
    deadlines.watch(after);

    assertThatThrownBy(before::join).hasCauseInstanceOf(ReplyDeadlines.Overdue.class);
    assertThatThrownBy(after::join).hasCauseInstanceOf(ReplyDeadlines.Overdue.class);
  }
}
