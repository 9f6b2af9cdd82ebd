package io.lineup.server;

import io.lineup.server.api.LaneAction;
import io.lineup.server.api.PathNames;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.Json;
import io.lineup.server.http.RequestBody;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * One client connection, first served by the lane: while its requests are plain {@code POST}s of
 * the lane's routes ({@link LaneRequestParser} says which), this reads them straight off Jetty's
 * end point and answers them itself; at the first request that is anything else it hands the
 * connection, that request's bytes and all after them, to Jetty's HTTP/1.1 connection for good.
 *
 * <p>Why: a publish served this way costs the server about a third less CPU than through Jetty's
 * HTTP layer and a request thread (docs/benchmarks.md): it is read on Jetty's selector thread,
 * started there without blocking ({@link LaneAction#start}), and answered from the thread that
 * completes it, with no request thread to wake and no thread waiting on Redis. A token only the
 * token store knows is read from it the same way, and the request then goes on on a virtual thread,
 * started without blocking where it can. A request whose action cannot start without blocking (a
 * queue whose archiving must first be switched on, every task submit) runs {@link LaneAction#serve}
 * on a virtual thread, as Jetty would run it. The answer is the same either way: status, headers,
 * body, metrics, access log.
 *
 * <p>One request at a time, as HTTP/1.1 answers in order: the next (a pipelined one) is read only
 * after the answer before it is written.
 *
 * <p>What is read and not yet served is in a {@link LaneReadBuffer}, which holds no buffer while
 * the connection waits with nothing unread.
 */
final class LaneConnection extends AbstractConnection implements Connection.UpgradeFrom {
  private static final ThreadFactory BLOCKING =
      Thread.ofVirtual().name("lineup-lane-request").factory();

  /**
   * What every lane connection of a connector shares.
   *
   * @param gate what every request passes
   * @param parser reads the heads
   * @param http the factory of the Jetty connection a connection is handed to
   * @param serving the count of lane requests being served (read, not yet answered)
   * @param buffersHeld the count of read buffers lane connections hold (taken, not given back)
   */
  record Parts(
      RequestGate gate,
      LaneRequestParser parser,
      HttpConnectionFactory http,
      AtomicInteger serving,
      AtomicInteger buffersHeld) {}

  private final Parts parts;
  private final Connector connector;
  private final Callback readable = new Readable();
  private final LaneReadBuffer buffer;
  private LaneHead pending;
  private boolean checked;
  private boolean closeAfter;
  private volatile boolean serving;

  LaneConnection(Parts parts, Connector connector, EndPoint endPoint) {
    super(endPoint, connector.getExecutor());
    this.parts = parts;
    this.connector = connector;
    this.buffer =
        new LaneReadBuffer(
            connector.getByteBufferPool(), parts.parser().maxHeadBytes(), parts.buffersHeld());
  }

  @Override
  public void onOpen() {
    super.onOpen();
    fillInterested(readable);
  }

  @Override
  public void onFillable() {
    process();
  }

  /** What is left unread goes to the connection that takes over. */
  @Override
  public ByteBuffer onUpgradeFrom() {
    return buffer.takeUnread();
  }

  /** Not while a request is served: its answer is still to be written. */
  @Override
  public boolean onIdleExpired(TimeoutException timeout) {
    return !serving && super.onIdleExpired(timeout);
  }

  /**
   * Closed, perhaps from another thread while a request is read: see {@link LaneReadBuffer#forget}.
   */
  @Override
  public void onClose(Throwable cause) {
    buffer.forget();
    super.onClose(cause);
  }

  /**
   * Reads and serves what has come, until a request is being served, more bytes must be waited for,
   * or the connection is handed over or closed.
   */
  private void process() {
    try {
      ByteBuffer in = buffer.bytes();
      while (true) {
        if (pending == null) {
          LaneRequestParser.Result parsed =
              parts.parser().parse(in.array(), in.position(), in.limit());
          switch (parsed.kind()) {
            case HAND_OVER -> {
              handOver(in);
              return;
            }
            case HEAD -> pending = parsed.head();
            case MORE -> {
              buffer.makeRoom(in.capacity());
              in = buffer.bytes();
            }
          }
        }
        if (pending != null) {
          if (in.limit() >= pending.bodyEnd()) {
            LaneHead head = pending;
            pending = null;
            checked = false;
            byte[] body = Arrays.copyOfRange(in.array(), head.bodyStart(), head.bodyEnd());
            in.position(head.bodyEnd());
            serve(head, body);
            return;
          }
          if (!checked && refusedBeforeTheBody(pending)) {
            return;
          }
          checked = true;
          if (buffer.makeRoom(pending.bodyEnd() - in.position())) {
            pending = null; // parsed again where the bytes now are
          }
          in = buffer.bytes();
        }
        int filled = getEndPoint().fill(in);
        if (filled < 0) {
          getEndPoint().close();
          return;
        }
        if (filled == 0) {
          if (pending == null && !in.hasRemaining()) {
            buffer.release();
          }
          fillInterested(readable);
          return;
        }
      }
    } catch (Throwable failure) {
      getEndPoint().close(failure);
    }
  }

  /** Jetty's HTTP/1.1 connection takes over, starting with the bytes not yet read. */
  private void handOver(ByteBuffer in) {
    if (in.remaining() > parts.http().getInputBufferSize()) {
      // Cannot happen: heads are read in a buffer no larger. Closing beats losing bytes.
      getEndPoint().close(new IllegalStateException("more unread bytes than Jetty's buffer"));
      return;
    }
    getEndPoint().upgrade(parts.http().newConnection(connector, getEndPoint()));
  }

  /**
   * Answers a request whose body is still on its way when what its head says is refused already
   * (shutting down, no or a bad token, a bad namespace), as the routes do: at once, closing the
   * connection after the answer, since the body will not be read.
   *
   * @return whether it was refused
   */
  private boolean refusedBeforeTheBody(LaneHead head) {
    RequestGate gate = parts.gate();
    try {
      callerKnownFromTheHead(head);
      return false;
    } catch (RuntimeException failure) {
      serving = true;
      parts.serving().incrementAndGet();
      closeAfter = true;
      String id = gate.idOf(head.requestId());
      finish(head, id, System.nanoTime(), failure(head, id, failure));
      return true;
    }
  }

  /**
   * What the head alone says of the caller: refused (shutting down, which is the connection's last
   * answer; no or a malformed token; a bad namespace; a token that may not call the route), the
   * caller, or null when only the token store can tell. Never blocks.
   *
   * @throws RuntimeException the refusal, answered as the routes answer it
   */
  private Principal callerKnownFromTheHead(LaneHead head) {
    RequestGate gate = parts.gate();
    if (gate.refuses(head.path())) {
      closeAfter = true;
      throw RequestGate.shuttingDown();
    }
    String ns = head.namespace();
    return gate.authorizeLocally(
        head.authorization(), head.route().access(), () -> PathNames.namespace(ns));
  }

  private void serve(LaneHead head, byte[] body) {
    serving = true;
    parts.serving().incrementAndGet();
    long start = System.nanoTime();
    RequestGate gate = parts.gate();
    String id = gate.idOf(head.requestId());
    closeAfter = head.close();
    LaneAction.Body reader = field -> RequestBody.parse(body, true, field);
    Principal principal;
    try {
      principal = callerKnownFromTheHead(head);
      if (principal == null) {
        lookUpTheCaller(head, reader, id, start);
        return;
      }
      if (startedWithoutBlocking(head, reader, id, start, principal)) {
        return;
      }
    } catch (RuntimeException failure) {
      finish(head, id, start, failure(head, id, failure));
      return;
    }
    BLOCKING.newThread(() -> serveBlocking(head, reader, id, start, principal)).start();
  }

  /**
   * A token only the token store knows: read without a thread waiting for it; the request then goes
   * on, on a thread of its own rather than the Redis client's I/O thread that completes the read
   * (the body is parsed next, and a publish sent from that thread would be written ahead of the
   * calls other threads handed to it just before).
   */
  private void lookUpTheCaller(LaneHead head, LaneAction.Body reader, String id, long start) {
    String ns = head.namespace();
    parts
        .gate()
        .authorizeAsync(head.authorization(), head.route().access(), () -> PathNames.namespace(ns))
        .whenComplete((caller, failure) -> {
          if (failure != null) {
            finish(head, id, start, failure(head, id, failure));
          } else {
            BLOCKING.newThread(() -> startOrServe(head, reader, id, start, caller)).start();
          }
        });
  }

  /** On a thread that may block: the action started without blocking where it can, else served. */
  private void startOrServe(
      LaneHead head, LaneAction.Body reader, String id, long start, Principal principal) {
    parts.gate().resume(id);
    try {
      if (startedWithoutBlocking(head, reader, id, start, principal)) {
        return;
      }
    } catch (RuntimeException failure) {
      finish(head, id, start, failure(head, id, failure));
      return;
    }
    serveBlocking(head, reader, id, start, principal);
  }

  /**
   * Starts the action without blocking, answered from the thread that completes it.
   *
   * @return false when the action declines (it must be served on a thread that may block)
   * @throws RuntimeException what the action finds wrong before anything is sent
   */
  private boolean startedWithoutBlocking(
      LaneHead head, LaneAction.Body reader, String id, long start, Principal principal) {
    CompletableFuture<LaneAction.Answer> started =
        head.route().action().start(head.namespace(), head.name(), reader, principal);
    if (started == null) {
      return false;
    }
    started.whenComplete((answer, failure) ->
        finish(head, id, start, failure == null ? answer : failure(head, id, failure)));
    return true;
  }

  /** The way Jetty's request threads serve it: the whole action on a thread that may block. */
  private void serveBlocking(
      LaneHead head, LaneAction.Body reader, String id, long start, Principal principal) {
    parts.gate().resume(id);
    LaneAction.Answer answer;
    try {
      answer = head.route().action().serve(head.namespace(), head.name(), reader, principal);
    } catch (RuntimeException failure) {
      answer = failure(head, id, failure);
    }
    finish(head, id, start, answer);
  }

  /** The error answer for a failure, logged as the routes log them. */
  private LaneAction.Answer failure(LaneHead head, String id, Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    ApiException api = ErrorMapper.toApiException(cause);
    parts.gate().resume(id);
    ErrorMapper.log(api, cause, "POST", head.path());
    return new LaneAction.Answer(
        api.status(), Json.write(ErrorMapper.body(api)), ErrorMapper.headers(api));
  }

  /** Records the request and writes its answer; the next request is read once it is written. */
  private void finish(LaneHead head, String id, long start, LaneAction.Answer answer) {
    RequestGate gate = parts.gate();
    if (gate.refuses(head.path())) {
      // The shutdown began while it was served: the last answer on this connection, so that the
      // server's graceful stop, which waits for connections to close, need not wait any longer.
      closeAfter = true;
    }
    gate.resume(id);
    gate.close(
        "POST", head.route().template(), head.path(), answer.status(), System.nanoTime() - start);
    getEndPoint()
        .write(
            Callback.from(Invocable.InvocationType.NON_BLOCKING, this::written, this::notWritten),
            ByteBuffer.wrap(head(answer, id)),
            ByteBuffer.wrap(answer.json()));
  }

  private byte[] head(LaneAction.Answer answer, String id) {
    StringBuilder head = new StringBuilder(160);
    head.append("HTTP/1.1 ")
        .append(answer.status())
        .append(' ')
        .append(HttpStatus.getMessage(answer.status()))
        .append("\r\nDate: ")
        .append(connector.getServer().getDateField().getValue())
        .append("\r\nContent-Type: application/json\r\nX-Request-Id: ")
        .append(id);
    for (Map.Entry<String, String> header : answer.headers().entrySet()) {
      head.append("\r\n").append(header.getKey()).append(": ").append(header.getValue());
    }
    head.append("\r\nContent-Length: ").append(answer.json().length);
    if (closeAfter) {
      head.append("\r\nConnection: close");
    }
    return head.append("\r\n\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private void written() {
    serving = false;
    parts.serving().decrementAndGet();
    if (closeAfter) {
      getEndPoint().close();
      return;
    }
    if (buffer.hasUnread()) {
      process(); // a pipelined request
    } else {
      buffer.release(); // the pool's, or a large body's own
      fillInterested(readable);
    }
  }

  private void notWritten(Throwable failure) {
    serving = false;
    parts.serving().decrementAndGet();
    getEndPoint().close(failure);
  }

  /** Jetty calls {@link #onFillable} on its selector thread: nothing in it blocks. */
  private final class Readable implements Callback {
    @Override
    public void succeeded() {
      onFillable();
    }

    @Override
    public void failed(Throwable failure) {
      onFillInterestedFailed(failure);
    }

    @Override
    public InvocationType getInvocationType() {
      return InvocationType.NON_BLOCKING;
    }
  }
}
