package io.lineup.spring;

import io.lineup.consumer.WorkerOptions;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code lineup.*} settings of the starter (docs/spring.md lists them with their defaults and
 * bounds). Durations take Spring's forms ({@code 30s}, {@code 500ms}, ISO-8601).
 */
@ConfigurationProperties(prefix = "lineup")
public class LineupProperties {
  /** How the application reaches Lineup. */
  public enum Mode {
    /** The engine runs in this application, on a Redis. */
    EMBEDDED,
    /** The application talks to a Lineup server over HTTP. */
    CLIENT
  }

  /** Embedded engine on a Redis, or client of a Lineup server. */
  private Mode mode = Mode.EMBEDDED;

  private final Redis redis = new Redis();
  private final Client client = new Client();
  private final Worker worker = new Worker();
  private final Schedules schedules = new Schedules();
  private final Publish publish = new Publish();
  private final Observation observation = new Observation();

  /** Embedded, or client. */
  public Mode getMode() {
    return mode;
  }

  /** Sets the mode. */
  public void setMode(Mode mode) {
    this.mode = mode;
  }

  /** The embedded engine's Redis. */
  public Redis getRedis() {
    return redis;
  }

  /** The client mode's server. */
  public Client getClient() {
    return client;
  }

  /** Defaults of the {@link LineupHandler} workers. */
  public Worker getWorker() {
    return worker;
  }

  /** The {@link LineupSchedule} declarations. */
  public Schedules getSchedules() {
    return schedules;
  }

  /** The {@link LineupPublisher}. */
  public Publish getPublish() {
    return publish;
  }

  /** Observations (timers and spans) of publishes and handled jobs. */
  public Observation getObservation() {
    return observation;
  }

  /** {@code lineup.redis.*}. */
  public static class Redis {
    /**
     * Redis URI of the embedded engine, e.g. redis://:secret@host:6379/0 or rediss:// for TLS. When
     * not set, the host, port, user, password, database and SSL of Spring Data Redis's Lettuce
     * connection factory are used (a standalone Redis), or redis://127.0.0.1:6379 without one.
     */
    private String url;

    /** The URI, or null when not set. */
    public String getUrl() {
      return url;
    }

    /** Sets the URI. */
    public void setUrl(String url) {
      this.url = url;
    }
  }

  /** {@code lineup.client.*}. */
  public static class Client {
    /** Base URL of the Lineup server, e.g. http://lineup:7700 (required in client mode). */
    private String url;

    /** Bearer token the client sends; never logged. */
    private String token;

    /** The URL, or null when not set. */
    public String getUrl() {
      return url;
    }

    /** Sets the URL. */
    public void setUrl(String url) {
      this.url = url;
    }

    /** The token, or null when not set. */
    public String getToken() {
      return token;
    }

    /** Sets the token. */
    public void setToken(String token) {
      this.token = token;
    }
  }

  /**
   * {@code lineup.worker.*}. The defaults are the engine's ({@link WorkerOptions#defaults()}),
   * written as literals so the generated metadata shows them.
   */
  public static class Worker {
    /** Whether @LineupHandler methods run workers in this application. */
    private boolean enabled = true;

    /** Jobs one handler runs at once (1 to 10000), unless its annotation says otherwise. */
    private int concurrency = 8;

    /**
     * Longest single wait for jobs before a worker looks again; it is woken at once when a job is
     * ready. Embedded: 1 ms or more; client: 0 to 300 s (one long-poll).
     */
    private Duration idleWait = Duration.ofSeconds(30);

    /**
     * How long running jobs may finish when the application stops, before they are interrupted and
     * given back to the line.
     */
    private Duration shutdownGrace = Duration.ofSeconds(30);

    /** Whether workers run. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Switches workers on or off. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** Default concurrency. */
    public int getConcurrency() {
      return concurrency;
    }

    /** Sets the default concurrency. */
    public void setConcurrency(int concurrency) {
      this.concurrency = concurrency;
    }

    /** Idle wait. */
    public Duration getIdleWait() {
      return idleWait;
    }

    /** Sets the idle wait. */
    public void setIdleWait(Duration idleWait) {
      this.idleWait = idleWait;
    }

    /** Shutdown grace. */
    public Duration getShutdownGrace() {
      return shutdownGrace;
    }

    /** Sets the shutdown grace. */
    public void setShutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = shutdownGrace;
    }
  }

  /** {@code lineup.schedules.*}. */
  public static class Schedules {
    /** Whether @LineupSchedule declarations are created or updated at start-up. */
    private boolean enabled = true;

    /** Whether schedules are written. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Switches schedule writing on or off. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code lineup.publish.*}. */
  public static class Publish {
    /**
     * Whether LineupPublisher, called inside an active Spring transaction, publishes only after
     * that transaction commits (nothing at all on rollback). Outside a transaction it publishes at
     * once either way.
     */
    private boolean afterCommit = true;

    /** Whether publishes wait for the commit. */
    public boolean isAfterCommit() {
      return afterCommit;
    }

    /** Switches publishing after commit on or off. */
    public void setAfterCommit(boolean afterCommit) {
      this.afterCommit = afterCommit;
    }
  }

  /**
   * {@code lineup.observation.*}: how the application's ObservationRegistry, when it has one, sees
   * Lineup (docs/spring.md, Traces; docs/tracing.md).
   */
  public static class Observation {
    /**
     * Whether publishes and handled jobs are observed in the application's ObservationRegistry
     * (timers lineup.publish and lineup.process, and their spans with a tracer). Without a registry
     * bean nothing is observed either way.
     */
    private boolean enabled = true;

    /**
     * Whether observations carry the queue's namespace (the tenant) as the low-cardinality tag
     * lineup.namespace. Off by default: it multiplies the metric series by the number of tenants.
     */
    private boolean tenantTags = false;

    /** Whether the registry is passed to Lineup. */
    public boolean isEnabled() {
      return enabled;
    }

    /** Switches observations on or off. */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** Whether the namespace is a tag. */
    public boolean isTenantTags() {
      return tenantTags;
    }

    /** Switches the namespace tag on or off. */
    public void setTenantTags(boolean tenantTags) {
      this.tenantTags = tenantTags;
    }
  }
}
