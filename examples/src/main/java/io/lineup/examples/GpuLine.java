package io.lineup.examples;

import io.lineup.api.resource.Job;
import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.PublishResult;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.client.RemoteWorker;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * VIP and normal users share one GPU endpoint. Each tier publishes through its own token: the
 * normal users' token has a maximum priority of 0 and the VIP gateway's of 10, so a VIP request
 * goes ahead of every waiting normal one and nobody can raise their own priority (the server
 * refuses a priority above the token's maximum with 403). One worker renders one request at a time;
 * every user can ask for their place in line and an ETA.
 *
 * <p>Run: {@code LINEUP_URL=... LINEUP_TOKEN=<admin token> java ... GpuLine}.
 */
public final class GpuLine implements AutoCloseable {
  /** The GPU endpoint's line. */
  public static final QueueName QUEUE = QueueName.of("gpu", "render");

  /** The priority of a VIP request; a normal one has 0. */
  public static final int VIP_PRIORITY = 10;

  private final LineupClient normalUsers;
  private final LineupClient vipUsers;
  private final LineupClient gpu;
  private final Duration renderTime;
  private RemoteWorker worker;

  /**
   * @param normalUsers a client with the normal users' token (publish, max priority 0)
   * @param vipUsers a client with the VIP gateway's token (publish, max priority 10)
   * @param gpu a client with the GPU worker's token (consume)
   * @param renderTime how long one render takes
   */
  public GpuLine(
      LineupClient normalUsers, LineupClient vipUsers, LineupClient gpu, Duration renderTime) {
    this.normalUsers = normalUsers;
    this.vipUsers = vipUsers;
    this.gpu = gpu;
    this.renderTime = renderTime;
  }

  /** A normal user's request; answers its id and place in line. */
  public PublishResult submitNormal(String prompt) {
    return normalUsers.publish(QUEUE, NewJob.ofJson(json(prompt)));
  }

  /** A VIP user's request: ahead of every normal one. */
  public PublishResult submitVip(String prompt) {
    return vipUsers.publish(QUEUE, NewJob.ofJson(json(prompt)).priority(VIP_PRIORITY));
  }

  /** Where a request stands: state, position (0 = next) and ETA. */
  public Job status(String requestId) {
    return normalUsers.get(QUEUE, requestId);
  }

  /** Starts the one GPU: one render at a time. */
  public void startGpu() {
    JobHandler<LeasedJob> render =
        job -> {
          Thread.sleep(renderTime.toMillis()); // the GPU at work
          return ("{\"image\":\"render-of-" + job.id() + ".png\"}")
              .getBytes(StandardCharsets.UTF_8);
        };
    worker = gpu.worker(QUEUE, render, WorkerOptions.defaults().withConcurrency(1)).start();
  }

  @Override
  public void close() {
    if (worker != null) {
      worker.close();
    }
  }

  private static String json(String prompt) {
    return "{\"prompt\":\"" + prompt.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
  }

  /**
   * Sets up the tokens, queues five normal requests and one VIP, and prints the line as it moves.
   */
  public static void main(String[] args) throws InterruptedException {
    String url = System.getenv().getOrDefault("LINEUP_URL", "http://127.0.0.1:7700");
    try (LineupClient admin = LineupClient.connect(url, System.getenv("LINEUP_TOKEN"))) {
      if (admin.admin().namespaces().stream().noneMatch(n -> n.name().equals("gpu"))) {
        admin.admin().createNamespace("gpu");
      }
      String normal =
          admin.admin().createToken("gpu", List.of("publish"), 0, "normal users").token();
      String vip =
          admin.admin().createToken("gpu", List.of("publish"), VIP_PRIORITY, "VIP gateway").token();
      String worker = admin.admin().createToken("gpu", List.of("consume"), 0, "GPU worker").token();
      try (LineupClient n = LineupClient.connect(url, normal);
          LineupClient v = LineupClient.connect(url, vip);
          LineupClient w = LineupClient.connect(url, worker);
          GpuLine line = new GpuLine(n, v, w, Duration.ofSeconds(2))) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
          ids.add(line.submitNormal("a cat, take " + i).id());
        }
        PublishResult vipRequest = line.submitVip("a dog, VIP");
        System.out.println("VIP request is at position " + vipRequest.position());
        ids.add(vipRequest.id());
        line.startGpu();
        for (int tick = 0; tick < 8; tick++) {
          Thread.sleep(2000);
          for (String id : ids) {
            Job s = line.status(id);
            System.out.printf(
                "%s %-6s position %2d  eta %s%n",
                id, s.state(), s.position(), s.etaMs() == null ? "-" : s.etaMs() + " ms");
          }
          System.out.println();
        }
      }
    }
  }
}
